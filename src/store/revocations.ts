// The revocation signal between processes (docs/owner.md "Revocation signal"). Every revoked token id
// is appended with a monotonically increasing `seq`, in the transaction that deletes its grant. A
// running server polls after(cursor) about once a second and fires the in-process revocation event
// (src/oauth/revocation-poller.ts), whoever revoked: this process (/oauth/revoke), `mailbox-mcp
// revoke` in another one, or another instance on a shared store.
//
// Why a seq cursor is exact: SQLite runs one writer at a time and AUTOINCREMENT never reuses a
// value, so a row with a lower seq is always visible before one with a higher seq. (A Postgres
// store must keep that property: take a transaction-scoped advisory lock before the INSERT, so
// identity values commit in order; the poller and these names stay as they are.)
import type { Database } from "bun:sqlite";

export interface Revocation {
  seq: number;
  /** TokenRecord.id (SHA-256 of the token). */
  tokenId: string;
}

/** Rows far older than any poll interval go with GrantStore.purgeExpired; a starting poller begins at latest(). */
export const REVOCATION_RETENTION_MS = 24 * 3600_000;

/** Inside the caller's transaction: note `tokenIds` as revoked at `now`. */
export function recordRevocations(db: Database, tokenIds: readonly string[], now: number): void {
  const insert = db.query(`INSERT INTO revocations (token_id, revoked_at) VALUES (?, ?)`);
  for (const id of tokenIds) insert.run(id, now);
}

/**
 * Inside the caller's transaction: delete a grant (its tokens go by cascade, its unused codes with
 * it; used codes stay as replay records) and record its tokens as revoked. Returns their ids.
 */
export function deleteGrant(db: Database, grantId: string, now: number): string[] {
  const tokenIds = db
    .query<{ token_hash: string }, [string]>(`SELECT token_hash FROM tokens WHERE grant_id = ?`)
    .all(grantId)
    .map((t) => t.token_hash);
  db.query(`DELETE FROM codes WHERE grant_id = ? AND used_at IS NULL`).run(grantId);
  db.query(`DELETE FROM grants WHERE id = ?`).run(grantId);
  recordRevocations(db, tokenIds, now);
  return tokenIds;
}

export class Revocations {
  constructor(private readonly db: Database) {}

  /** The newest seq, 0 when there is none: where a poller that starts now begins. */
  latest(): number {
    return this.db.query<{ seq: number | null }, []>(`SELECT MAX(seq) AS seq FROM revocations`).get()?.seq ?? 0;
  }

  /** Revocations after `seq`, oldest first, at most `limit`: one range scan of the primary key. */
  after(seq: number, limit = 500): Revocation[] {
    return this.db
      .query<Revocation, [number, number]>(`SELECT seq, token_id AS tokenId FROM revocations WHERE seq > ? ORDER BY seq LIMIT ?`)
      .all(seq, limit);
  }
}
