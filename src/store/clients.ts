// Registered OAuth clients (RFC 7591; docs/oauth.md §9). A confidential client's secret is stored only
// as its SHA-256 (it is 256 random bits, so a fast hash is enough). A registration lives while it is used:
// it expires `idleMs` after its registration or its latest grant, whichever is later.
import type { Clock } from "../clock.ts";
import type { Db } from "./db.ts";
import { int, intOrNull } from "./values.ts";

export type ClientAuthMethod = "none" | "client_secret_post" | "client_secret_basic";

export interface RegisteredClient {
  id: string;
  /** SHA-256 of the client secret; null for a public client. */
  secretHash: string | null;
  authMethod: ClientAuthMethod;
  /** Self-declared: whatever the registering app sent, already cleaned. */
  name: string | null;
  redirectUris: string[];
  createdAt: number;
  /** When a person last granted it access (a code was issued: GrantStore.issueCode); null if never. */
  grantedAt: number | null;
}

export class ClientStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** A registration without a grant for this long is gone. */
    private readonly idleMs: number,
  ) {}

  private liveSince(): number {
    return this.clock() - this.idleMs;
  }

  async insert(client: Omit<RegisteredClient, "createdAt" | "grantedAt">): Promise<RegisteredClient> {
    const createdAt = this.clock();
    await this.db.q`INSERT INTO clients (id, secret_hash, auth_method, client_name, redirect_uris, created_at, granted_at)
      VALUES (${client.id}, ${client.secretHash}, ${client.authMethod}, ${client.name}, ${JSON.stringify(client.redirectUris)},
              ${createdAt}, NULL)`;
    return { ...client, createdAt, grantedAt: null };
  }

  /** The live registration, or null (unknown, or expired even if not yet purged). */
  async find(id: string): Promise<RegisteredClient | null> {
    const [row] = await this.db.q<Record<string, unknown>>`
      SELECT id, secret_hash, auth_method, client_name, redirect_uris, created_at, granted_at FROM clients
       WHERE id = ${id} AND COALESCE(granted_at, created_at) > ${this.liveSince()}`;
    if (!row) return null;
    return {
      id: row.id as string, secretHash: row.secret_hash as string | null, authMethod: row.auth_method as ClientAuthMethod,
      name: row.client_name as string | null, redirectUris: JSON.parse(row.redirect_uris as string) as string[],
      createdAt: int(row.created_at), grantedAt: intOrNull(row.granted_at),
    };
  }

  async countLive(): Promise<number> {
    const [row] = await this.db.q<{ n: unknown }>`
      SELECT COUNT(*) AS n FROM clients WHERE COALESCE(granted_at, created_at) > ${this.liveSince()}`;
    return int(row!.n);
  }

  /**
   * Make room at the cap: delete the oldest registration that was never granted anything and is
   * older than `before`. Returns whether one was deleted.
   */
  async evictOldestUnused(before: number): Promise<boolean> {
    const gone = await this.db.q`DELETE FROM clients WHERE id = (
      SELECT id FROM clients WHERE granted_at IS NULL AND created_at <= ${before} ORDER BY created_at LIMIT 1) RETURNING id`;
    return gone.length > 0;
  }

  async purgeExpired(): Promise<void> {
    await this.db.q`DELETE FROM clients WHERE COALESCE(granted_at, created_at) <= ${this.liveSince()}`;
  }
}
