// Pending authorizations (docs/design.md §3): what GET /oauth/authorize validated, kept server-side for 10
// minutes under the SHA-256 of its opaque request id; the form carries only that id and a CSRF token.
// In the store, so the form's POST may land on any instance.
import type { Clock } from "../clock.ts";
import { hashSecret, randomHex, safeEqual } from "./crypto.ts";
import type { Db } from "./db.ts";
import type { NewPending, PendingRequest } from "./grant-records.ts";
import { int, intOrNull } from "./values.ts";

export type { NewPending, PendingRequest } from "./grant-records.ts";

export class PendingStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * `clientKey`: who asked (the client's limiter key), so one client's share can be counted. A request
   * without state is stored with "" (the column is NOT NULL; RFC 6749 §3.1: an empty parameter is an omitted one).
   */
  async create(req: NewPending, ttlMs: number, clientKey: string | null = null): Promise<{ requestId: string; csrfToken: string }> {
    const requestId = randomHex(32);
    const csrfToken = randomHex(32);
    await this.db.q`INSERT INTO pending_requests
        (id_hash, csrf_hash, redirect_uri, code_challenge, state, resource, expires_at, client_key, client_id, scope)
      VALUES (${hashSecret(requestId)}, ${hashSecret(csrfToken)}, ${req.redirectUri}, ${req.codeChallenge}, ${req.state ?? ""},
              ${req.resource}, ${this.clock() + ttlMs}, ${clientKey}, ${req.clientId ?? null}, ${req.scope ?? null})`;
    return { requestId, csrfToken };
  }

  /** The unexpired pending request, or null. */
  async get(requestId: string): Promise<PendingRequest | null> {
    const [row] = await this.db.q<Record<string, unknown>>`
      SELECT id_hash, csrf_hash, client_id, redirect_uri, code_challenge, state, resource, scope, expires_at
        FROM pending_requests WHERE id_hash = ${hashSecret(requestId)} AND expires_at > ${this.clock()}`;
    if (!row) return null;
    return {
      idHash: row.id_hash as string, csrfHash: row.csrf_hash as string, clientId: row.client_id as string | null,
      redirectUri: row.redirect_uri as string, codeChallenge: row.code_challenge as string, state: (row.state as string) || null,
      resource: row.resource as string | null, scope: row.scope as string | null, expiresAt: int(row.expires_at),
    };
  }

  csrfMatches(pending: PendingRequest, csrfToken: string): boolean {
    return safeEqual(pending.csrfHash, hashSecret(csrfToken));
  }

  async delete(pending: PendingRequest): Promise<void> {
    await this.db.q`DELETE FROM pending_requests WHERE id_hash = ${pending.idHash}`;
  }

  /** Unexpired pending requests: a bound on what unauthenticated visitors can make us store. */
  async count(): Promise<number> {
    const [row] = await this.db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM pending_requests WHERE expires_at > ${this.clock()}`;
    return int(row!.n);
  }

  /** How many unexpired pending requests one client holds, and when the first of them expires. */
  async heldBy(clientKey: string): Promise<{ count: number; firstExpiry: number | null }> {
    const [row] = await this.db.q<{ n: unknown; first: unknown }>`
      SELECT COUNT(*) AS n, MIN(expires_at) AS first FROM pending_requests
       WHERE client_key = ${clientKey} AND expires_at > ${this.clock()}`;
    return { count: int(row!.n), firstExpiry: intOrNull(row!.first) };
  }

  /** The client holding the most unexpired pending requests (null key: rows without one), or null when none. */
  async topHolder(): Promise<{ clientKey: string | null; count: number } | null> {
    const [row] = await this.db.q<{ client_key: string | null; n: unknown }>`
      SELECT client_key, COUNT(*) AS n FROM pending_requests WHERE expires_at > ${this.clock()}
       GROUP BY client_key ORDER BY n DESC LIMIT 1`;
    return row ? { clientKey: row.client_key, count: int(row.n) } : null;
  }

  /** Deletes the client's pending request that expires first. */
  async dropOldest(clientKey: string | null): Promise<void> {
    await this.db.q`DELETE FROM pending_requests WHERE id_hash =
      (SELECT id_hash FROM pending_requests WHERE client_key IS NOT DISTINCT FROM ${clientKey} ORDER BY expires_at LIMIT 1)`;
  }

  async purgeExpired(): Promise<void> {
    await this.db.q`DELETE FROM pending_requests WHERE expires_at <= ${this.clock()}`;
  }
}
