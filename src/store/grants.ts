// The credential store: grants with their sealed credentials, the codes and tokens bound to them.
// Envelope scheme (DESIGN §4): each grant's credentials are sealed under a random data key; that key
// is stored only wrapped under HMAC(master key, code or token). Revoking deletes the grant row.
// Pending authorizations are in pending.ts.
import type { Clock } from "../clock.ts";
import {
  hashSecret, newDataKey, open, ownerKey, randomHex, seal, unwrapDataKey, wrapDataKey,
} from "./crypto.ts";
import type { Db, Sql } from "./db.ts";
import type { PendingRequest } from "./pending.ts";
import { bytes, int, intOrNull } from "./values.ts";

export interface CodeRecord {
  codeHash: string;
  grantId: string;
  codeChallenge: string;
  redirectUri: string;
  resource: string | null;
  expiresAt: number;
  usedAt: number | null;
}

export interface TokenRecord {
  /** SHA-256 of the token: a stable id for sessions and pooled connections, safe to keep in memory. */
  id: string;
  grantId: string;
  scope: string;
  resource: string | null;
  expiresAt: number;
}

/** Whose grant a new code starts: one mailbox login through one client, which keeps its newest `keep` grants. */
export interface GrantOwner {
  clientId: string;
  /** The mailbox login, e.g. username and IMAP host; compared as given (normalise before). */
  login: string;
  keep: number;
}

export class GrantStore {
  constructor(
    private readonly db: Db,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /**
   * Seal the credentials into a new grant, bind it to `code` (issued by the caller) and consume the
   * pending request. With an owner, that owner's grants beyond the newest `keep` (this one included)
   * are revoked in the same transaction. Returns the ids of the tokens so revoked: the caller must
   * close their sessions and connections (TokenEvents), as for any revocation.
   */
  async issueCode(code: string, pending: PendingRequest, credentials: Uint8Array, ttlMs: number, owner: GrantOwner | null = null): Promise<string[]> {
    const grantId = randomHex(16);
    const dataKey = newDataKey();
    const sealed = await seal(dataKey, credentials, `grant:${grantId}`);
    const wrapped = await wrapDataKey(this.masterKey, code, dataKey, `grant:${grantId}`);
    dataKey.fill(0);
    const now = this.clock();
    const key = owner ? ownerKey(this.masterKey, [owner.clientId, owner.login]) : null;
    return this.db.tx(async (tx) => {
      // Two instances connecting the same login at once: one after the other, so `keep` holds exactly.
      if (key && this.db.dialect === "postgres") await tx`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
      await tx`INSERT INTO grants (id, sealed_credentials, created_at, owner_key) VALUES (${grantId}, ${sealed}, ${now}, ${key})`;
      await tx`INSERT INTO codes (code_hash, grant_id, wrapped_key, code_challenge, redirect_uri, resource, expires_at, used_at, token_hash)
        VALUES (${hashSecret(code)}, ${grantId}, ${wrapped}, ${pending.codeChallenge}, ${pending.redirectUri}, ${pending.resource},
                ${now + ttlMs}, NULL, NULL)`;
      await tx`DELETE FROM pending_requests WHERE id_hash = ${pending.idHash}`;
      return key && owner ? revokeBeyond(tx, key, owner.keep) : [];
    });
  }

  /** The code's record whether used or expired (the caller decides), or null when unknown. */
  async findCode(code: string): Promise<CodeRecord | null> {
    const [row] = await this.db.q<Record<string, unknown>>`
      SELECT code_hash, grant_id, code_challenge, redirect_uri, resource, expires_at, used_at
        FROM codes WHERE code_hash = ${hashSecret(code)}`;
    if (!row) return null;
    return {
      codeHash: row.code_hash as string, grantId: row.grant_id as string, codeChallenge: row.code_challenge as string,
      redirectUri: row.redirect_uri as string, resource: row.resource as string | null,
      expiresAt: int(row.expires_at), usedAt: intOrNull(row.used_at),
    };
  }

  /**
   * Exchange an unused code for a new token: the data key is re-wrapped for the token and the
   * code's copy destroyed. Returns null if the code was consumed meanwhile (a racing replay, on
   * this instance or another: the conditional UPDATE lets exactly one exchange win).
   */
  async redeemCode(code: string, record: CodeRecord, token: string, scope: string, ttlMs: number): Promise<TokenRecord | null> {
    const [row] = await this.db.q<{ wrapped_key: unknown }>`SELECT wrapped_key FROM codes WHERE code_hash = ${record.codeHash}`;
    if (!row?.wrapped_key) return null;
    const aad = `grant:${record.grantId}`;
    const dataKey = await unwrapDataKey(this.masterKey, code, bytes(row.wrapped_key), aad);
    const wrappedByToken = await wrapDataKey(this.masterKey, token, dataKey, aad);
    dataKey.fill(0);
    const now = this.clock();
    const tokenHash = hashSecret(token);
    const done = await this.db.tx(async (tx) => {
      const used = await tx`UPDATE codes SET used_at = ${now}, wrapped_key = NULL, token_hash = ${tokenHash}
                             WHERE code_hash = ${record.codeHash} AND used_at IS NULL RETURNING code_hash`;
      if (used.length !== 1) return false;
      await tx`INSERT INTO tokens (token_hash, grant_id, wrapped_key, scope, resource, created_at, expires_at)
        VALUES (${tokenHash}, ${record.grantId}, ${wrappedByToken}, ${scope}, ${record.resource}, ${now}, ${now + ttlMs})`;
      return true;
    });
    if (!done) return null;
    return { id: tokenHash, grantId: record.grantId, scope, resource: record.resource, expiresAt: now + ttlMs };
  }

  /**
   * A used code came back: revoke the token issued from it (RFC 6749 §10.5).
   * Returns the revoked token's id, if any, so live sessions can be closed.
   */
  async revokeFromReplayedCode(record: CodeRecord): Promise<string | null> {
    return this.db.tx(async (tx) => {
      const [row] = await tx<{ token_hash: string | null }[]>`SELECT token_hash FROM codes WHERE code_hash = ${record.codeHash}`;
      await tx`DELETE FROM grants WHERE id = ${record.grantId}`;
      return row?.token_hash ?? null;
    });
  }

  /** The active (unexpired, unrevoked) token's record, or null: one indexed lookup, on every /mcp request. */
  async findToken(token: string): Promise<TokenRecord | null> {
    const [row] = await this.db.q<Record<string, unknown>>`
      SELECT token_hash, grant_id, scope, resource, expires_at FROM tokens
       WHERE token_hash = ${hashSecret(token)} AND expires_at > ${this.clock()}`;
    if (!row) return null;
    return {
      id: row.token_hash as string, grantId: row.grant_id as string, scope: row.scope as string,
      resource: row.resource as string | null, expiresAt: int(row.expires_at),
    };
  }

  /** Unwrap and open the credentials behind an active token; null when the token is gone. */
  async openCredentials(token: string): Promise<Uint8Array | null> {
    const [row] = await this.db.q<{ wrapped_key: unknown; sealed_credentials: unknown; grant_id: string }>`
      SELECT t.wrapped_key, g.sealed_credentials, g.id AS grant_id
        FROM tokens t JOIN grants g ON g.id = t.grant_id
       WHERE t.token_hash = ${hashSecret(token)} AND t.expires_at > ${this.clock()}`;
    if (!row) return null;
    const aad = `grant:${row.grant_id}`;
    const dataKey = await unwrapDataKey(this.masterKey, token, bytes(row.wrapped_key), aad);
    try {
      return await open(dataKey, bytes(row.sealed_credentials), aad);
    } finally {
      dataKey.fill(0);
    }
  }

  /** Revoke a token and destroy its credentials. Returns its id when it existed. */
  async revokeToken(token: string): Promise<string | null> {
    const tokenHash = hashSecret(token);
    const gone = await this.db.q`DELETE FROM grants WHERE id = (SELECT grant_id FROM tokens WHERE token_hash = ${tokenHash}) RETURNING id`;
    return gone.length ? tokenHash : null;
  }

  /** Delete expired codes and tokens; grants left without a code or token go with them. */
  async purgeExpired(): Promise<void> {
    const now = this.clock();
    await this.db.tx(async (tx) => {
      await tx`DELETE FROM tokens WHERE expires_at <= ${now}`;
      // A used code stays (hash only, its key already destroyed) while its token lives, so a replay
      // after the code's 5 minutes still revokes that token (RFC 6749 §4.1.2, §10.5).
      await tx`DELETE FROM codes WHERE expires_at <= ${now}
                 AND (used_at IS NULL OR NOT EXISTS (SELECT 1 FROM tokens t WHERE t.token_hash = codes.token_hash))`;
      await tx`DELETE FROM grants WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.grant_id = grants.id)
                                    AND NOT EXISTS (SELECT 1 FROM codes c WHERE c.grant_id = grants.id)`;
    });
  }
}

/** Inside a transaction: revoke the owner's grants older than its newest `keep`; their token ids. */
async function revokeBeyond(tx: Sql, key: string, keep: number): Promise<string[]> {
  const owned = await tx<{ id: string }[]>`SELECT id FROM grants WHERE owner_key = ${key} ORDER BY created_at DESC, rowid DESC`;
  const old = owned.slice(keep).map((g) => g.id);
  if (old.length === 0) return [];
  const tokens = await tx<{ token_hash: string }[]>`SELECT token_hash FROM tokens WHERE grant_id IN ${tx(old)}`;
  // An unused code of a revoked grant must not be exchanged later; used ones stay as replay records.
  await tx`DELETE FROM codes WHERE grant_id IN ${tx(old)} AND used_at IS NULL`;
  await tx`DELETE FROM grants WHERE id IN ${tx(old)}`;
  return tokens.map((t) => t.token_hash);
}
