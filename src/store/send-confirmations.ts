// Single-use confirmation requests (docs/design.md §3 "Send policy"): each request for the person's
// say-so (a 2026-07-28 requestState, a review card's token) carries a random nonce whose hash is
// kept here until it expires. Taking it is one conditional UPDATE, so of two answers carrying the
// same nonce, on any instance, exactly one is taken; the other is a replay and is refused.
import type { Clock } from "../clock.ts";
import { hashSecret, randomHex } from "./crypto.ts";
import type { Db } from "./db.ts";

export class SendConfirmations {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** A new nonce for the grant, valid for `ttlMs`. */
  async issue(grantId: string, ttlMs: number): Promise<string> {
    const nonce = randomHex(16);
    await this.db.q`INSERT INTO send_confirmations (nonce_hash, grant_id, expires_at, used_at)
      VALUES (${hashSecret(nonce)}, ${grantId}, ${this.clock() + ttlMs}, NULL)`;
    return nonce;
  }

  /** True exactly once for an issued, unexpired nonce of this grant; false for a replay or a stranger's. */
  async take(grantId: string, nonce: string): Promise<boolean> {
    const now = this.clock();
    const rows = await this.db.q`UPDATE send_confirmations SET used_at = ${now}
      WHERE nonce_hash = ${hashSecret(nonce)} AND grant_id = ${grantId} AND used_at IS NULL AND expires_at > ${now} RETURNING nonce_hash`;
    return rows.length === 1;
  }

  /** Deletes expired nonces (the purge). */
  async purge(): Promise<void> {
    await this.db.q`DELETE FROM send_confirmations WHERE expires_at <= ${this.clock()}`;
  }
}
