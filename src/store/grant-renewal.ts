// Renewing a grant's sealed credentials in place (docs/design.md §5): an OAuth access token refreshed,
// a rotated refresh token kept. The new credentials are sealed under the grant's own data key, which
// only the token unwraps (docs/oauth.md §3), and stored before the lock is released, so whoever comes
// next — this process, another instance, after a restart — starts from them and never spends a
// refresh token that has been replaced.
//
// One renewal per grant at a time, everywhere: on Postgres the grant's row is locked (SELECT … FOR
// UPDATE) for the whole renewal, so instances sharing the store take turns and the second finds the
// first one's result; on SQLite (one serving process per file, docs/deploy.md) an in-process chain per
// grant does the same without holding the file's write lock while the provider answers.
import type { Clock } from "../clock.ts";
import { hashSecret, open, seal, unwrapDataKey } from "./crypto.ts";
import type { Db, Sql } from "./db.ts";
import { bytes, intOrNull } from "./values.ts";

/** What the renewal decided, given the credentials as stored now. */
export type RenewalOutcome =
  /** Stored credentials are current (someone renewed them meanwhile): use them. */
  | { kind: "keep" }
  /** Store these instead. */
  | { kind: "replace"; credentials: Uint8Array }
  /** The provider refuses the grant for good (RFC 6749 §5.2 invalid_grant): mark it. */
  | { kind: "lost" };

export type RenewalDecision = (stored: Uint8Array, lostAt: number | null) => Promise<RenewalOutcome>;

export interface RenewedCredentials {
  credentials: Uint8Array;
  /** When the grant's sign-in was found dead, or null. */
  lostAt: number | null;
}

interface Row { wrapped_key: unknown; sealed_credentials: unknown; grant_id: string; sign_in_lost_at: unknown; aad: string }

export class GrantRenewals {
  /** SQLite: the renewal under way per grant, so the next waits for it (a chain per grant id). */
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /**
   * Opens the credentials behind `token`, lets `decide` renew them, stores its result, and returns
   * what is stored afterwards; null when the token is unknown, expired or revoked.
   */
  async renew(token: string, decide: RenewalDecision, position = 0): Promise<RenewedCredentials | null> {
    if (this.db.dialect === "postgres") {
      // No deadlock can make Db.tx run this twice (it retries deadlock victims): the transaction
      // locks one grants row and takes no other lock before writing it.
      return this.db.tx((tx) => this.renewIn(tx, token, decide, position));
    }
    const grantId = await this.grantOf(token);
    if (!grantId) return null;
    const before = this.chains.get(grantId) ?? Promise.resolve(); // one chain per grant: its mailboxes renew in turn
    const run = before.catch(() => {}).then(() => this.renewIn(null, token, decide, position));
    this.chains.set(grantId, run);
    try {
      return await run;
    } finally {
      if (this.chains.get(grantId) === run) this.chains.delete(grantId);
    }
  }

  private async grantOf(token: string): Promise<string | null> {
    const [row] = await this.db.q<{ grant_id: string }>`SELECT grant_id FROM tokens WHERE token_hash = ${hashSecret(token)}`;
    return row?.grant_id ?? null;
  }

  /** `tx` on Postgres (row locked), null on SQLite (statements through the queue, the chain as lock). */
  private async renewIn(tx: Sql | null, token: string, decide: RenewalDecision, position: number): Promise<RenewedCredentials | null> {
    const now = this.clock();
    const hash = hashSecret(token);
    const rows = tx
      ? await tx<Row[]>`SELECT t.wrapped_key, g.sealed_credentials, g.grant_id, g.sign_in_lost_at, g.aad
          FROM tokens t JOIN grant_mailboxes g ON g.grant_id = t.grant_id
         WHERE t.token_hash = ${hash} AND t.expires_at > ${now} AND g.position = ${position} FOR UPDATE OF g`
      : await this.db.q<Row>`SELECT t.wrapped_key, g.sealed_credentials, g.grant_id, g.sign_in_lost_at, g.aad
          FROM tokens t JOIN grant_mailboxes g ON g.grant_id = t.grant_id
         WHERE t.token_hash = ${hash} AND t.expires_at > ${now} AND g.position = ${position}`;
    const row = rows[0];
    if (!row) return null;
    const aad = row.aad; // the mailbox's own AAD (migration 16); the data key's stays the grant's
    const dataKey = await unwrapDataKey(this.masterKey, token, bytes(row.wrapped_key), `grant:${row.grant_id}`);
    try {
      const stored = await open(dataKey, bytes(row.sealed_credentials), aad);
      const lostAt = intOrNull(row.sign_in_lost_at);
      const outcome = await decide(stored, lostAt);
      if (outcome.kind === "keep") return { credentials: stored, lostAt };
      if (outcome.kind === "lost") {
        const at = lostAt ?? this.clock();
        if (tx) await tx`UPDATE grant_mailboxes SET sign_in_lost_at = ${at} WHERE grant_id = ${row.grant_id} AND position = ${position}`;
        else await this.db.q`UPDATE grant_mailboxes SET sign_in_lost_at = ${at} WHERE grant_id = ${row.grant_id} AND position = ${position}`;
        return { credentials: stored, lostAt: at };
      }
      const sealed = await seal(dataKey, outcome.credentials, aad);
      if (tx) await tx`UPDATE grant_mailboxes SET sealed_credentials = ${sealed} WHERE grant_id = ${row.grant_id} AND position = ${position}`;
      else await this.db.q`UPDATE grant_mailboxes SET sealed_credentials = ${sealed} WHERE grant_id = ${row.grant_id} AND position = ${position}`;
      return { credentials: outcome.credentials, lostAt };
    } finally {
      dataKey.fill(0);
    }
  }
}
