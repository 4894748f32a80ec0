// The revocation signal between processes (docs/owner.md "Revocation signal"). Every revoked token id
// is appended with a monotonically increasing `seq`, in the transaction that deletes its grant. A
// running server polls after(cursor) about once a second and fires the in-process revocation event
// (src/oauth/lifecycle/revocation-poller.ts), whoever revoked: this process (/oauth/revoke), `mailbox-mcp
// revoke` in another one, or another instance on a shared store.
//
// On Postgres the revoking transaction also sends a NOTIFY (delivered on commit), and every
// instance LISTENs: a revocation reaches the others at once, and an idle instance sends no query.
// The notification carries nothing; the listener reads the seq range as the poll does.
//
// Why a seq cursor is exact: a row with a lower seq must be visible before one with a higher seq.
// SQLite runs one writer at a time and AUTOINCREMENT never reuses a value. Postgres hands out
// identity values before commit, so two revoking transactions could commit out of order and a poller
// would skip the lower one: every revoking transaction first takes one transaction-scoped advisory
// lock, so they run (and commit) one after another.
import type { Db, Dialect, Sql } from "./db.ts";
import { int } from "./values.ts";

export interface Revocation {
  seq: number;
  /** TokenRecord.id (SHA-256 of the token). */
  tokenId: string;
  /**
   * Absent: the whole token is revoked. A number: only the mailbox at that position left the token's
   * connection (its row deleted); the token and its other mailboxes live on. Stored in the same
   * `token_id` column as `<token id>#<position>` (a token id is hex, so `#` cannot be part of one),
   * so a removal reaches every instance by the path a revocation takes, with no new column.
   */
  position?: number;
}

/** One mailbox taken out of a live token's connection: what a running server closes for it. */
export interface MailboxRemoval {
  tokenId: string;
  position: number;
}

const removalId = (r: MailboxRemoval) => `${r.tokenId}#${r.position}`;

function parseRevoked(stored: string): Pick<Revocation, "tokenId" | "position"> {
  const at = stored.indexOf("#");
  if (at < 0) return { tokenId: stored };
  return { tokenId: stored.slice(0, at), position: Number(stored.slice(at + 1)) };
}

/** Rows far older than any poll interval go with GrantStore.purgeExpired; a starting poller begins at latest(). */
export const REVOCATION_RETENTION_MS = 24 * 3600_000;

/** The advisory lock id that orders revocations on Postgres ("rvk!" in ASCII). */
const REVOCATION_LOCK = 0x72766b21;

/** The NOTIFY channel of new revocations (Postgres). */
export const REVOCATION_CHANNEL = "mailbox_mcp_revocations";

/** Inside the caller's transaction: note `tokenIds` as revoked at `now`. */
export async function recordRevocations(tx: Sql, dialect: Dialect, tokenIds: readonly string[], now: number): Promise<void> {
  if (!tokenIds.length) return;
  if (dialect === "postgres") await tx`SELECT pg_advisory_xact_lock(${REVOCATION_LOCK})`;
  for (const id of tokenIds) await tx`INSERT INTO revocations (token_id, revoked_at) VALUES (${id}, ${now})`;
  // Sent at commit, and not at all on rollback (PostgreSQL NOTIFY); identical ones in one transaction fold into one.
  if (dialect === "postgres") await tx`SELECT pg_notify(${REVOCATION_CHANNEL}, '')`;
}

/**
 * Inside the caller's transaction, after the grant's mailbox at `position` was deleted: note, for
 * each of the grant's tokens, that this one mailbox is gone, so every instance closes what it holds
 * open for it (its IMAP connection, SMTP transport, credentials in memory). Returns the removals.
 */
export async function recordMailboxRemoval(tx: Sql, dialect: Dialect, grantId: string, position: number, now: number): Promise<MailboxRemoval[]> {
  const rows = await tx<{ token_hash: string }[]>`SELECT token_hash FROM tokens WHERE grant_id = ${grantId}`;
  const removals = rows.map((t) => ({ tokenId: t.token_hash, position }));
  await recordRevocations(tx, dialect, removals.map(removalId), now);
  return removals;
}

/**
 * Inside the caller's transaction: delete a grant (its tokens go by cascade, its unused codes with
 * it; used codes stay as replay records) and record its tokens as revoked. Returns their ids.
 */
export async function deleteGrant(tx: Sql, dialect: Dialect, grantId: string, now: number): Promise<string[]> {
  const rows = await tx<{ token_hash: string }[]>`SELECT token_hash FROM tokens WHERE grant_id = ${grantId}`;
  const tokenIds = rows.map((t) => t.token_hash);
  await tx`DELETE FROM codes WHERE grant_id = ${grantId} AND used_at IS NULL`;
  await tx`DELETE FROM grants WHERE id = ${grantId}`;
  await recordRevocations(tx, dialect, tokenIds, now);
  return tokenIds;
}

/** deleteGrant for each of `grantIds` in turn; all their token ids. */
export async function deleteGrants(tx: Sql, dialect: Dialect, grantIds: readonly string[], now: number): Promise<string[]> {
  const out: string[] = [];
  for (const id of grantIds) out.push(...(await deleteGrant(tx, dialect, id, now)));
  return out;
}

export class Revocations {
  constructor(private readonly db: Db) {}

  /**
   * Postgres: calls `wake` on every new revocation (any instance, any process) and whenever the
   * subscription is (re)established; returns how to stop. SQLite: null, there is nothing to listen
   * to (a CLI in another process cannot signal us) and the caller polls.
   */
  async subscribe(wake: () => void): Promise<{ unlisten(): Promise<void> } | null> {
    if (this.db.dialect !== "postgres") return null;
    return this.db.listen(REVOCATION_CHANNEL, wake, wake);
  }

  /** The newest seq, 0 when there is none: where a poller that starts now begins. */
  async latest(): Promise<number> {
    const [row] = await this.db.q<{ seq: unknown }>`SELECT MAX(seq) AS seq FROM revocations`;
    return row?.seq == null ? 0 : int(row.seq);
  }

  /** Revocations after `seq`, oldest first, at most `limit`: one range scan of the primary key. */
  async after(seq: number, limit = 500): Promise<Revocation[]> {
    const rows = await this.db.q<{ seq: unknown; token_id: string }>`
      SELECT seq, token_id FROM revocations WHERE seq > ${seq} ORDER BY seq LIMIT ${limit}`;
    return rows.map((r) => ({ seq: int(r.seq), ...parseRevoked(r.token_id) }));
  }
}
