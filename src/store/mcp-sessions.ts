// 2025-era MCP sessions as rows (migration 3), so that a restart, or another instance on the same
// store, serves a session it did not open. A row holds the SHA-256 of the Mcp-Session-Id (the id is
// a bearer-like secret next to the token, DESIGN §4), the owning token's hash, the client's
// initialize params (to rebuild the session elsewhere) and the last activity. What src/mcp keeps in
// memory (server objects, open SSE streams) is only a cache of these rows.
import type { Database } from "bun:sqlite";
import { hashSecret } from "./crypto.ts";

export interface SessionRecord {
  /** TokenRecord.id of the token that opened the session. */
  tokenId: string;
  lastSeen: number;
}

/** The store key of a session id: never the id itself (the database alone must not open a session). */
export const sessionKey = (sessionId: string): string => hashSecret(sessionId);

export class SessionRows {
  constructor(private readonly db: Database) {}

  insert(key: string, tokenId: string, init: string, now: number): void {
    this.db
      .query(`INSERT INTO mcp_sessions (id_hash, token_hash, init, created_at, last_seen) VALUES (?, ?, ?, ?, ?)`)
      .run(key, tokenId, init, now, now);
  }

  find(key: string): SessionRecord | null {
    return this.db
      .query<SessionRecord, [string]>(`SELECT token_hash AS tokenId, last_seen AS lastSeen FROM mcp_sessions WHERE id_hash = ?`)
      .get(key);
  }

  /** The initialize params the session was opened with (JSON), or null when the row is gone. */
  init(key: string): string | null {
    return this.db.query<{ init: string }, [string]>(`SELECT init FROM mcp_sessions WHERE id_hash = ?`).get(key)?.init ?? null;
  }

  touch(key: string, now: number): void {
    this.db.query(`UPDATE mcp_sessions SET last_seen = ? WHERE id_hash = ?`).run(now, key);
  }

  /** True when the row existed. */
  delete(key: string): boolean {
    return this.db.query(`DELETE FROM mcp_sessions WHERE id_hash = ?`).run(key).changes > 0;
  }

  /** Deletes the token's sessions; their keys. */
  deleteToken(tokenId: string): string[] {
    return this.keys(this.db.query<{ id_hash: string }, [string]>(`DELETE FROM mcp_sessions WHERE token_hash = ? RETURNING id_hash`).all(tokenId));
  }

  /** Deletes sessions idle since `cutoff` or longer; their keys. */
  deleteIdle(cutoff: number): string[] {
    return this.keys(this.db.query<{ id_hash: string }, [number]>(`DELETE FROM mcp_sessions WHERE last_seen <= ? RETURNING id_hash`).all(cutoff));
  }

  count(): number {
    return this.db.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM mcp_sessions`).get()!.n;
  }

  countFor(tokenId: string): number {
    return this.db.query<{ n: number }, [string]>(`SELECT COUNT(*) AS n FROM mcp_sessions WHERE token_hash = ?`).get(tokenId)!.n;
  }

  /**
   * Deletes the least recently used sessions of `tokenId` beyond `perToken`, then those of anyone
   * beyond `total`, in one transaction (instances sharing the store see either all or none).
   * Returns the deleted keys.
   */
  evict(tokenId: string, perToken: number, total: number): string[] {
    return this.db.transaction(() => [
      ...this.keys(this.db
        .query<{ id_hash: string }, [string, number]>(
          `DELETE FROM mcp_sessions WHERE id_hash IN (SELECT id_hash FROM mcp_sessions WHERE token_hash = ?
             ORDER BY last_seen DESC, created_at DESC, rowid DESC LIMIT -1 OFFSET ?) RETURNING id_hash`,
        )
        .all(tokenId, perToken)),
      ...this.keys(this.db
        .query<{ id_hash: string }, [number]>(
          `DELETE FROM mcp_sessions WHERE id_hash IN (SELECT id_hash FROM mcp_sessions
             ORDER BY last_seen DESC, created_at DESC, rowid DESC LIMIT -1 OFFSET ?) RETURNING id_hash`,
        )
        .all(total)),
    ])();
  }

  /** Which of `keys` still have a row (the rest were ended elsewhere: another instance, a cascade). */
  existing(keys: string[]): Set<string> {
    if (!keys.length) return new Set();
    const rows = this.db
      .query<{ id_hash: string }, [string]>(`SELECT id_hash FROM mcp_sessions WHERE id_hash IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(keys));
    return new Set(this.keys(rows));
  }

  private keys(rows: Array<{ id_hash: string }>): string[] {
    return rows.map((r) => r.id_hash);
  }
}
