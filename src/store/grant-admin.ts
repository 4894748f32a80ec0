// The owner's view of the grants (docs/owner.md): what `mailbox-mcp grants` lists and `revoke`
// ends. Revoking here is what /oauth/revoke does (the grant row goes, and with it the sealed
// credentials and the wrapped keys), plus a row in `revocations` per token for running servers.
import type { Database } from "bun:sqlite";
import type { Clock } from "../clock.ts";
import { DecryptError, openRecord } from "./crypto.ts";
import type { GrantLabel } from "./grants.ts";
import { deleteGrant } from "./revocations.ts";

export interface GrantSummary {
  /** The grant id (32 hex characters); the CLI shows its first 8. */
  id: string;
  /** Null for grants made before migration 5. */
  clientId: string | null;
  /** A registered client's self-declared name (RFC 7591 client_name), else null. */
  clientName: string | null;
  redirectUri: string | null;
  scope: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** When its access token expires. */
  expiresAt: number;
  /** Null for grants made before migration 5, or when this master key cannot open it. */
  label: GrantLabel | null;
}

/** A row as selected: the label still sealed. */
type Row = Omit<GrantSummary, "label"> & { sealed: Uint8Array | null };

export class GrantAdmin {
  constructor(
    private readonly db: Database,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /** Every live grant (one with an unexpired token), newest first. */
  async list(): Promise<GrantSummary[]> {
    const rows = this.db
      .query<Row, [number]>(
        `SELECT g.id, g.client_id AS clientId, c.client_name AS clientName, g.redirect_uri AS redirectUri, g.scope,
                g.created_at AS createdAt, g.last_used_at AS lastUsedAt, MAX(t.expires_at) AS expiresAt, g.sealed_label AS sealed
           FROM grants g JOIN tokens t ON t.grant_id = g.id LEFT JOIN clients c ON c.id = g.client_id
          WHERE t.expires_at > ?
          GROUP BY g.id ORDER BY g.created_at DESC, g.rowid DESC`,
      )
      .all(this.clock());
    return Promise.all(rows.map(async ({ sealed, ...row }) => ({ ...row, label: await this.label(row.id, sealed) })));
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
  revoke(grantIds: readonly string[]): string[] {
    const now = this.clock();
    return this.db.transaction(() => grantIds.flatMap((id) => deleteGrant(this.db, id, now)))();
  }
}
