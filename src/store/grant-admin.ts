// The owner's view of the grants (docs/owner.md): what `mailbox-mcp grants` lists and `revoke`
// ends. Revoking here is what /oauth/revoke does (the grant row goes, and with it the sealed
// credentials and the wrapped keys), plus a row in `revocations` per token for running servers.
import type { Clock } from "../clock.ts";
import type { SendPolicy } from "../send-policy.ts";
import { DecryptError, openRecord } from "./crypto.ts";
import type { GrantLabel } from "./grants.ts";
import type { Db } from "./db.ts";
import { deleteGrants } from "./revocations.ts";
import { bytes, int, intOrNull } from "./values.ts";

export interface GrantSummary {
  /** The grant id (32 hex characters); the CLI shows its first 8. */
  id: string;
  /** Null for grants made before migration 5. */
  clientId: string | null;
  /** A registered client's self-declared name (RFC 7591 client_name), else null. */
  clientName: string | null;
  redirectUri: string | null;
  scope: string;
  /** What it may send and when the person is asked; grants made before policies existed: "direct". */
  sendPolicy: SendPolicy;
  createdAt: number;
  lastUsedAt: number | null;
  /** When its access token expires. */
  expiresAt: number;
  /** Null for grants made before migration 5, or when this master key cannot open it. */
  label: GrantLabel | null;
  /** When the OAuth provider refused a refresh token of the grant's mailboxes for good (the app must reconnect), else null. */
  signInLostAt: number | null;
}


export class GrantAdmin {
  constructor(
    private readonly db: Db,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /** Every live grant (one with an unexpired token), newest first. */
  async list(): Promise<GrantSummary[]> {
    const rows = await this.db.q<Record<string, unknown>>`
      SELECT g.id, g.client_id, MAX(c.client_name) AS client_name, g.redirect_uri, g.scope, g.send_policy, g.created_at, g.last_used_at,
             MAX(t.expires_at) AS expires_at, g.sealed_label,
             (SELECT MAX(m.sign_in_lost_at) FROM grant_mailboxes m WHERE m.grant_id = g.id) AS sign_in_lost_at
        FROM grants g JOIN tokens t ON t.grant_id = g.id LEFT JOIN clients c ON c.id = g.client_id
       WHERE t.expires_at > ${this.clock()}
       GROUP BY g.id ORDER BY g.created_at DESC, g.rowid DESC`;
    return Promise.all(rows.map(async (r) => ({
      id: r.id as string, clientId: r.client_id as string | null, clientName: r.client_name as string | null,
      redirectUri: r.redirect_uri as string | null, scope: r.scope as string, sendPolicy: r.send_policy as SendPolicy, createdAt: int(r.created_at),
      lastUsedAt: intOrNull(r.last_used_at), expiresAt: int(r.expires_at),
      label: await this.label(r.id as string, r.sealed_label == null ? null : bytes(r.sealed_label)),
      signInLostAt: intOrNull(r.sign_in_lost_at),
    })));
  }

  private async label(grantId: string, sealed: Uint8Array | null): Promise<GrantLabel | null> {
    if (!sealed) return null;
    try {
      return await openRecord<GrantLabel>(this.masterKey, sealed, `label:${grantId}`);
    } catch (err) {
      if (err instanceof DecryptError) return null;
      throw err;
    }
  }

  /** Revokes these grants in one transaction; returns the ids of the tokens that died. */
  revoke(grantIds: readonly string[]): Promise<string[]> {
    const now = this.clock();
    return this.db.tx((tx) => deleteGrants(tx, this.db.dialect, grantIds, now));
  }
}
