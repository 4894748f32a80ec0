// The credential store: grants with their sealed credentials, the codes and tokens bound to them.
// Envelope scheme (docs/design.md §4): each grant's credentials are sealed under a random data key; that key
// is stored only wrapped under HMAC(master key, code or token). Revoking deletes the grant row.
// Pending authorizations are in pending.ts; the row types in grant-records.ts.
import type { Clock } from "../clock.ts";
import { READ_SCOPE } from "../scopes.ts";
import { DEFAULT_SEND_POLICY, type SendPolicy } from "../send-policy.ts";
import {
  hashSecret, mailboxKey, newDataKey, ownerKey, randomHex, sealRecord, unwrapDataKey, wrapDataKey,
} from "./crypto.ts";
import { GrantMailboxes, insertMailboxes, type NewMailbox } from "./grant-mailboxes.ts";
import { ACTIVITY_RETENTION_MS } from "./activity.ts";
import type { Db, Sql } from "./db.ts";
import {
  DEFAULT_GRANT_SCOPE, type CodeRecord, type GrantInfo, type GrantOwner, type PendingRequest, type TokenRecord,
} from "./grant-records.ts";
import { deleteGrant, deleteGrants, REVOCATION_RETENTION_MS } from "./revocations.ts";
import { bytes, int, intOrNull } from "./values.ts";

export { DEFAULT_GRANT_SCOPE };
export type { CodeRecord, GrantInfo, GrantLabel, GrantOwner, PendingRequest, TokenRecord } from "./grant-records.ts";

/** A one-mailbox grant from the older call form: the credentials and what `info` says of them. */
function oneMailbox(credentials: Uint8Array, owner: GrantOwner | null, info: GrantInfo): NewMailbox {
  return {
    credentials, login: owner?.login ?? "", label: info.label ?? { email: "", host: "" }, provider: info.provider ?? "custom",
    access: info.scope === READ_SCOPE ? "read" : "read_write", sendPolicy: info.sendPolicy ?? DEFAULT_SEND_POLICY,
    ...(info.sentMark ? { sentMark: info.sentMark } : {}),
  };
}

export class GrantStore {
  private readonly mailboxes: GrantMailboxes;

  constructor(
    private readonly db: Db,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
    /** Where touchGrant writes: on SQLite the connection without a sync per commit (store.ts). */
    private readonly bookkeeping: Db = db,
  ) {
    this.mailboxes = new GrantMailboxes(db, masterKey, clock);
  }

  /**
   * Seal the credentials into a new grant and bind it to `code` (issued by the caller) and to the client
   * that asked; a registered client's registration is kept alive by the grant (docs/oauth.md §9). With
   * an owner, that owner's grants beyond the newest `keep` (this one included) are revoked in the same
   * transaction. Returns the ids of the tokens so revoked: the caller must close their sessions and
   * connections (TokenEvents), as for any revocation.
   */
  async issueCode(code: string, pending: PendingRequest, credentials: Uint8Array | readonly NewMailbox[], ttlMs: number, owner: GrantOwner | null = null, info: GrantInfo = {}): Promise<string[]> {
    const grantId = randomHex(16);
    const dataKey = newDataKey();
    const mailboxes = Array.isArray(credentials) ? credentials as readonly NewMailbox[] : [oneMailbox(credentials as Uint8Array, owner, info)];
    const wrapped = await wrapDataKey(this.masterKey, code, dataKey, `grant:${grantId}`);
    const label = info.label ? await sealRecord(this.masterKey, info.label, `label:${grantId}`) : null;
    const now = this.clock();
    const key = owner ? ownerKey(this.masterKey, [owner.clientId, owner.login]) : null;
    // The person behind the grant whatever the client: the session cap's unit of fairness (src/store/mcp-sessions.ts).
    const mailbox = owner ? mailboxKey(this.masterKey, owner.login) : null;
    try {
      return await this.db.tx(async (tx) => {
        // Two instances connecting the same login at once: one after the other, so `keep` holds exactly.
        if (key && this.db.dialect === "postgres") await tx`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
        // The credentials live in grant_mailboxes (migration 16); the grant's own column stays empty.
        await tx`INSERT INTO grants (id, sealed_credentials, created_at, owner_key, client_id, redirect_uri, scope, sealed_label, mailbox_key, send_policy)
          VALUES (${grantId}, ${new Uint8Array(0)}, ${now}, ${key}, ${info.clientId ?? null}, ${pending.redirectUri},
                  ${info.scope ?? DEFAULT_GRANT_SCOPE}, ${label}, ${mailbox}, ${info.sendPolicy ?? DEFAULT_SEND_POLICY})`;
        await insertMailboxes(tx, this.masterKey, grantId, dataKey, mailboxes, now);
        await tx`INSERT INTO codes (code_hash, grant_id, wrapped_key, code_challenge, redirect_uri, resource, expires_at, used_at, token_hash, client_id)
          VALUES (${hashSecret(code)}, ${grantId}, ${wrapped}, ${pending.codeChallenge}, ${pending.redirectUri}, ${pending.resource},
                  ${now + ttlMs}, NULL, NULL, ${pending.clientId})`;
        await tx`DELETE FROM pending_requests WHERE id_hash = ${pending.idHash}`;
        if (pending.clientId) await tx`UPDATE clients SET granted_at = ${now} WHERE id = ${pending.clientId}`;
        return key && owner ? this.revokeBeyond(tx, key, owner.keep, now) : [];
      });
    } finally {
      dataKey.fill(0);
    }
  }

  /** Inside a transaction: revoke the owner's grants older than its newest `keep`; their token ids. */
  private async revokeBeyond(tx: Sql, key: string, keep: number, now: number): Promise<string[]> {
    const owned = await tx<{ id: string }[]>`SELECT id FROM grants WHERE owner_key = ${key} ORDER BY created_at DESC, rowid DESC`;
    return deleteGrants(tx, this.db.dialect, owned.slice(keep).map((g) => g.id), now);
  }

  /** The code's record whether used or expired (the caller decides), or null when unknown. */
  async findCode(code: string): Promise<CodeRecord | null> {
    const [row] = await this.db.q<Record<string, unknown>>`
      SELECT c.code_hash, c.grant_id, c.client_id, c.code_challenge, c.redirect_uri, c.resource,
             COALESCE(g.scope, ${DEFAULT_GRANT_SCOPE}) AS scope, c.expires_at, c.used_at
        FROM codes c LEFT JOIN grants g ON g.id = c.grant_id WHERE c.code_hash = ${hashSecret(code)}`;
    if (!row) return null;
    return {
      codeHash: row.code_hash as string, grantId: row.grant_id as string, clientId: row.client_id as string | null,
      codeChallenge: row.code_challenge as string, redirectUri: row.redirect_uri as string,
      resource: row.resource as string | null, scope: row.scope as string,
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
    const ids = await this.db.tx((tx) => deleteGrant(tx, this.db.dialect, record.grantId, this.clock()));
    return ids[0] ?? null;
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

  /** Unwrap and open the credentials of the connection's first mailbox; null when the token is gone. */
  async openCredentials(token: string): Promise<Uint8Array | null> {
    const [row] = await this.db.q<{ position: unknown }>`
      SELECT MIN(m.position) AS position FROM tokens t JOIN grant_mailboxes m ON m.grant_id = t.grant_id
       WHERE t.token_hash = ${hashSecret(token)}`;
    return row?.position == null ? null : this.mailboxes.open(token, Number(row.position));
  }

  /** Revoke a token and destroy its credentials. Returns its id when it existed. */
  async revokeToken(token: string): Promise<string | null> {
    const tokenHash = hashSecret(token);
    const [row] = await this.db.q<{ grant_id: string }>`SELECT grant_id FROM tokens WHERE token_hash = ${tokenHash}`;
    if (!row) return null;
    await this.db.tx((tx) => deleteGrant(tx, this.db.dialect, row.grant_id, this.clock()));
    return tokenHash;
  }

  /**
   * The send policy of the grant's first mailbox (docs/design.md §3), read when a message is about to go out; null when
   * the grant is gone. A value this build does not know is treated as the legacy one it replaced.
   */
  async sendPolicy(grantId: string): Promise<SendPolicy | null> {
    const [row] = await this.db.q<{ position: unknown }>`SELECT MIN(position) AS position FROM grant_mailboxes WHERE grant_id = ${grantId}`;
    return row?.position == null ? null : this.mailboxes.sendPolicy(grantId, Number(row.position));
  }

  /**
   * Notes that a grant was used now, for `mailbox-mcp grants` (callers throttle: src/oauth/lifecycle/last-used.ts).
   * On the bookkeeping connection: with a thousand active mailboxes these are ~17 commits a second,
   * each of which would otherwise wait for a disk sync on the event loop (docs/decisions.md "Store").
   */
  async touchGrant(grantId: string): Promise<void> {
    await this.bookkeeping.q`UPDATE grants SET last_used_at = ${this.clock()} WHERE id = ${grantId}`;
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
      await tx`DELETE FROM revocations WHERE revoked_at < ${now - REVOCATION_RETENTION_MS}`;
      await tx`DELETE FROM activity WHERE at < ${now - ACTIVITY_RETENTION_MS}`;
    });
  }
}
