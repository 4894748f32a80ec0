// Registered OAuth clients (RFC 7591; docs/oauth.md §9). A confidential client's secret is stored only
// as its SHA-256 (it is 256 random bits, so a fast hash is enough). A registration lives while it is used:
// it expires `idleMs` after its registration or its latest grant, whichever is later.
import type { Database } from "bun:sqlite";
import type { Clock } from "../clock.ts";

export type ClientAuthMethod = "none" | "client_secret_post";

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

type Row = Omit<RegisteredClient, "redirectUris"> & { redirectUris: string };

const COLUMNS = `id, secret_hash AS secretHash, auth_method AS authMethod, client_name AS name,
  redirect_uris AS redirectUris, created_at AS createdAt, granted_at AS grantedAt`;

export class ClientStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** A registration without a grant for this long is gone. */
    private readonly idleMs: number,
  ) {}

  private liveSince(): number {
    return this.clock() - this.idleMs;
  }

  insert(client: Omit<RegisteredClient, "createdAt" | "grantedAt">): RegisteredClient {
    const createdAt = this.clock();
    this.db
      .query(`INSERT INTO clients VALUES (?, ?, ?, ?, ?, ?, NULL)`)
      .run(client.id, client.secretHash, client.authMethod, client.name, JSON.stringify(client.redirectUris), createdAt);
    return { ...client, createdAt, grantedAt: null };
  }

  /** The live registration, or null (unknown, or expired even if not yet purged). */
  find(id: string): RegisteredClient | null {
    const row = this.db
      .query<Row, [string, number]>(`SELECT ${COLUMNS} FROM clients WHERE id = ? AND COALESCE(granted_at, created_at) > ?`)
      .get(id, this.liveSince());
    return row ? { ...row, redirectUris: JSON.parse(row.redirectUris) as string[] } : null;
  }

  countLive(): number {
    return this.db
      .query<{ n: number }, [number]>(`SELECT COUNT(*) AS n FROM clients WHERE COALESCE(granted_at, created_at) > ?`)
      .get(this.liveSince())!.n;
  }

  /**
   * Make room at the cap: delete the oldest registration that was never granted anything and is
   * older than `before`. Returns whether one was deleted.
   */
  evictOldestUnused(before: number): boolean {
    const res = this.db
      .query(`DELETE FROM clients WHERE id = (
                SELECT id FROM clients WHERE granted_at IS NULL AND created_at <= ? ORDER BY created_at LIMIT 1)`)
      .run(before);
    return res.changes > 0;
  }

  purgeExpired(): void {
    this.db.query(`DELETE FROM clients WHERE COALESCE(granted_at, created_at) <= ?`).run(this.liveSince());
  }
}
