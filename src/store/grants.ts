// The credential store: pending authorizations, codes, tokens and the sealed credentials behind them.
// Envelope scheme (DESIGN §4): each grant's credentials are sealed under a random data key; that key
// is stored only wrapped under HMAC(master key, code or token). Revoking deletes the grant row.
import type { Database } from "bun:sqlite";
import type { Clock } from "../clock.ts";
import {
  hashSecret, newDataKey, open, ownerKey, randomHex, safeEqual, seal, sealRecord, unwrapDataKey, wrapDataKey,
} from "./crypto.ts";
import { ACTIVITY_RETENTION_MS } from "./activity.ts";
import { deleteGrant, REVOCATION_RETENTION_MS } from "./revocations.ts";

import {
  DEFAULT_GRANT_SCOPE, type CodeRecord, type GrantInfo, type GrantOwner, type NewPending, type PendingRequest, type TokenRecord,
} from "./grant-records.ts";

export { DEFAULT_GRANT_SCOPE };
export type { CodeRecord, GrantInfo, GrantLabel, GrantOwner, PendingRequest, TokenRecord } from "./grant-records.ts";

export class GrantStore {
  constructor(
    private readonly db: Database,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /** `clientKey`: who asked (the client's limiter key), so one client's share can be counted. */
  createPending(req: NewPending, ttlMs: number, clientKey: string | null = null): { requestId: string; csrfToken: string } {
    const requestId = randomHex(32);
    const csrfToken = randomHex(32);
    this.db
      .query(`INSERT INTO pending_requests (id_hash, csrf_hash, redirect_uri, code_challenge, state, resource, expires_at, client_key, client_id, scope)
              VALUES ($id, $csrf, $redirect, $challenge, $state, $resource, $exp, $client, $clientId, $scope)`)
      .run({
        id: hashSecret(requestId), csrf: hashSecret(csrfToken), redirect: req.redirectUri,
        challenge: req.codeChallenge, state: req.state, resource: req.resource, exp: this.clock() + ttlMs, client: clientKey,
        clientId: req.clientId ?? null, scope: req.scope ?? null,
      });
    return { requestId, csrfToken };
  }

  /** Unexpired pending requests: a bound on what unauthenticated visitors can make us store. */
  countPending(): number {
    return this.db
      .query<{ n: number }, [number]>(`SELECT COUNT(*) AS n FROM pending_requests WHERE expires_at > ?`)
      .get(this.clock())!.n;
  }

  /** How many unexpired pending requests one client holds, and when the first of them expires. */
  pendingHeldBy(clientKey: string): { count: number; firstExpiry: number | null } {
    return this.db
      .query<{ count: number; firstExpiry: number | null }, [string, number]>(
        `SELECT COUNT(*) AS count, MIN(expires_at) AS firstExpiry FROM pending_requests WHERE client_key IS ? AND expires_at > ?`,
      )
      .get(clientKey, this.clock())!;
  }

  /** The client holding the most unexpired pending requests (null key: rows without one), or null when none. */
  topPendingHolder(): { clientKey: string | null; count: number } | null {
    const row = this.db
      .query<{ clientKey: string | null; count: number }, [number]>(
        `SELECT client_key AS clientKey, COUNT(*) AS count FROM pending_requests WHERE expires_at > ?
          GROUP BY client_key ORDER BY count DESC LIMIT 1`,
      )
      .get(this.clock());
    return row ?? null;
  }

  /** Deletes the client's pending request that expires first. */
  dropOldestPending(clientKey: string | null): void {
    this.db
      .query(`DELETE FROM pending_requests WHERE id_hash =
                (SELECT id_hash FROM pending_requests WHERE client_key IS ? ORDER BY expires_at LIMIT 1)`)
      .run(clientKey);
  }

  /** The unexpired pending request, or null. */
  getPending(requestId: string): PendingRequest | null {
    const row = this.db
      .query<PendingRequest, [string, number]>(
        `SELECT id_hash AS idHash, csrf_hash AS csrfHash, client_id AS clientId, redirect_uri AS redirectUri,
                code_challenge AS codeChallenge, state, resource, scope, expires_at AS expiresAt
           FROM pending_requests WHERE id_hash = ? AND expires_at > ?`,
      )
      .get(hashSecret(requestId), this.clock());
    return row ?? null;
  }

  csrfMatches(pending: PendingRequest, csrfToken: string): boolean {
    return safeEqual(pending.csrfHash, hashSecret(csrfToken));
  }

  deletePending(pending: PendingRequest): void {
    this.db.query(`DELETE FROM pending_requests WHERE id_hash = ?`).run(pending.idHash);
  }

  /**
   * Seal the credentials into a new grant and bind it to `code` (issued by the caller) and to the client
   * that asked; a registered client's registration is kept alive by the grant (docs/oauth.md §9). With
   * an owner, that owner's grants beyond the newest `keep` (this one included) are revoked in the same
   * transaction. Returns the ids of the tokens so revoked: the caller must close their sessions and
   * connections (TokenEvents), as for any revocation.
   */
  async issueCode(code: string, pending: PendingRequest, credentials: Uint8Array, ttlMs: number, owner: GrantOwner | null = null, info: GrantInfo = {}): Promise<string[]> {
    const grantId = randomHex(16);
    const dataKey = newDataKey();
    const sealed = await seal(dataKey, credentials, `grant:${grantId}`);
    const wrapped = await wrapDataKey(this.masterKey, code, dataKey, `grant:${grantId}`);
    dataKey.fill(0);
    const label = info.label ? await sealRecord(this.masterKey, info.label, `label:${grantId}`) : null;
    const now = this.clock();
    const key = owner ? ownerKey(this.masterKey, [owner.clientId, owner.login]) : null;
    return this.db.transaction(() => {
      this.db
        .query(`INSERT INTO grants (id, sealed_credentials, created_at, owner_key, client_id, redirect_uri, scope, sealed_label)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(grantId, sealed, now, key, info.clientId ?? null, pending.redirectUri, info.scope ?? DEFAULT_GRANT_SCOPE, label);
      this.db
        .query(`INSERT INTO codes VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?)`)
        .run(hashSecret(code), grantId, wrapped, pending.codeChallenge, pending.redirectUri, pending.resource, now + ttlMs,
          pending.clientId);
      this.db.query(`DELETE FROM pending_requests WHERE id_hash = ?`).run(pending.idHash);
      if (pending.clientId) this.db.query(`UPDATE clients SET granted_at = ? WHERE id = ?`).run(now, pending.clientId);
      return key && owner ? this.revokeBeyond(key, owner.keep) : [];
    })();
  }

  /** Inside a transaction: revoke the owner's grants older than its newest `keep`; their token ids. */
  private revokeBeyond(key: string, keep: number): string[] {
    const old = this.db
      .query<{ id: string }, [string, number]>(
        `SELECT id FROM grants WHERE owner_key = ? ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?`,
      )
      .all(key, keep)
      .map((g) => g.id);
    return old.flatMap((id) => deleteGrant(this.db, id, this.clock()));
  }

  /** The code's record whether used or expired (the caller decides), or null when unknown. */
  findCode(code: string): CodeRecord | null {
    const row = this.db
      .query<CodeRecord, [string, string]>(
        `SELECT c.code_hash AS codeHash, c.grant_id AS grantId, c.client_id AS clientId, c.code_challenge AS codeChallenge,
                c.redirect_uri AS redirectUri, c.resource, COALESCE(g.scope, ?) AS scope, c.expires_at AS expiresAt, c.used_at AS usedAt
           FROM codes c LEFT JOIN grants g ON g.id = c.grant_id WHERE c.code_hash = ?`,
      )
      .get(DEFAULT_GRANT_SCOPE, hashSecret(code));
    return row ?? null;
  }

  /**
   * Exchange an unused code for a new token: the data key is re-wrapped for the token and the
   * code's copy destroyed. Returns null if the code was consumed meanwhile (a racing replay).
   */
  async redeemCode(code: string, record: CodeRecord, token: string, scope: string, ttlMs: number): Promise<TokenRecord | null> {
    const wrappedByCode = this.db
      .query<{ wrapped_key: Uint8Array | null }, [string]>(`SELECT wrapped_key FROM codes WHERE code_hash = ?`)
      .get(record.codeHash)?.wrapped_key;
    if (!wrappedByCode) return null;
    const aad = `grant:${record.grantId}`;
    const dataKey = await unwrapDataKey(this.masterKey, code, wrappedByCode, aad);
    const wrappedByToken = await wrapDataKey(this.masterKey, token, dataKey, aad);
    dataKey.fill(0);
    const now = this.clock();
    const tokenHash = hashSecret(token);
    const done = this.db.transaction(() => {
      const upd = this.db
        .query(`UPDATE codes SET used_at = ?, wrapped_key = NULL, token_hash = ? WHERE code_hash = ? AND used_at IS NULL`)
        .run(now, tokenHash, record.codeHash);
      if (upd.changes !== 1) return false;
      this.db
        .query(`INSERT INTO tokens VALUES (?, ?, ?, ?, ?, ?, ?)`)
        .run(tokenHash, record.grantId, wrappedByToken, scope, record.resource, now, now + ttlMs);
      return true;
    })();
    if (!done) return null;
    return { id: tokenHash, grantId: record.grantId, scope, resource: record.resource, expiresAt: now + ttlMs };
  }

  /**
   * A used code came back: revoke the token issued from it (RFC 6749 §10.5).
   * Returns the revoked token's id, if any, so live sessions can be closed.
   */
  revokeFromReplayedCode(record: CodeRecord): string | null {
    return this.db.transaction(() => deleteGrant(this.db, record.grantId, this.clock())[0] ?? null)();
  }

  /** The active (unexpired, unrevoked) token's record, or null. */
  findToken(token: string): TokenRecord | null {
    const row = this.db
      .query<TokenRecord, [string, number]>(
        `SELECT token_hash AS id, grant_id AS grantId, scope, resource, expires_at AS expiresAt
           FROM tokens WHERE token_hash = ? AND expires_at > ?`,
      )
      .get(hashSecret(token), this.clock());
    return row ?? null;
  }

  /** Unwrap and open the credentials behind an active token; null when the token is gone. */
  async openCredentials(token: string): Promise<Uint8Array | null> {
    const row = this.db
      .query<{ wrapped_key: Uint8Array; sealed_credentials: Uint8Array; grant_id: string }, [string, number]>(
        `SELECT t.wrapped_key, g.sealed_credentials, g.id AS grant_id
           FROM tokens t JOIN grants g ON g.id = t.grant_id
          WHERE t.token_hash = ? AND t.expires_at > ?`,
      )
      .get(hashSecret(token), this.clock());
    if (!row) return null;
    const aad = `grant:${row.grant_id}`;
    const dataKey = await unwrapDataKey(this.masterKey, token, row.wrapped_key, aad);
    try {
      return await open(dataKey, row.sealed_credentials, aad);
    } finally {
      dataKey.fill(0);
    }
  }

  /** Revoke a token and destroy its credentials. Returns its id when it existed. */
  revokeToken(token: string): string | null {
    const tokenHash = hashSecret(token);
    const row = this.db
      .query<{ grant_id: string }, [string]>(`SELECT grant_id FROM tokens WHERE token_hash = ?`)
      .get(tokenHash);
    if (!row) return null;
    this.db.transaction(() => deleteGrant(this.db, row.grant_id, this.clock()))();
    return tokenHash;
  }

  /** Notes that a grant was used now, for `mailbox-mcp grants` (callers throttle: src/oauth/last-used.ts). */
  touchGrant(grantId: string): void {
    this.db.query(`UPDATE grants SET last_used_at = ? WHERE id = ?`).run(this.clock(), grantId);
  }

  /** Delete expired rows; grants left without a code or token go with them. */
  purgeExpired(): void {
    const now = this.clock();
    this.db.transaction(() => {
      this.db.query(`DELETE FROM pending_requests WHERE expires_at <= ?`).run(now);
      this.db.query(`DELETE FROM tokens WHERE expires_at <= ?`).run(now);
      // A used code stays (hash only, its key already destroyed) while its token lives, so a replay
      // after the code's 5 minutes still revokes that token (RFC 6749 §4.1.2, §10.5).
      this.db
        .query(`DELETE FROM codes WHERE expires_at <= ? AND (used_at IS NULL OR token_hash NOT IN (SELECT token_hash FROM tokens))`)
        .run(now);
      this.db.exec(
        `DELETE FROM grants WHERE id NOT IN (SELECT grant_id FROM tokens)
                              AND id NOT IN (SELECT grant_id FROM codes)`,
      );
      this.db.query(`DELETE FROM revocations WHERE revoked_at < ?`).run(now - REVOCATION_RETENTION_MS);
      this.db.query(`DELETE FROM activity WHERE at < ?`).run(now - ACTIVITY_RETENTION_MS);
    })();
  }
}
