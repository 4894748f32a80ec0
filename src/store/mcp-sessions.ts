// 2025-era MCP sessions as rows (migration 7), so that a restart, or another instance on the same
// store, serves a session it did not open. A row holds the SHA-256 of the Mcp-Session-Id (the id is
// a bearer-like secret next to the token, docs/design.md §4), the owning token's hash, the client's
// initialize params (to rebuild the session elsewhere) and the last activity. What src/mcp keeps in
// memory (server objects, open SSE streams) is only a cache of these rows.
import { hashSecret } from "./crypto.ts";
import type { Db, Sql } from "./db.ts";
import { int } from "./values.ts";

export interface SessionRecord {
  /** TokenRecord.id of the token that opened the session. */
  tokenId: string;
  lastSeen: number;
}

/** The store key of a session id: never the id itself (the database alone must not open a session). */
export const sessionKey = (sessionId: string): string => hashSecret(sessionId);

/** "No limit" for LIMIT … OFFSET: SQLite's `LIMIT -1` is not valid on Postgres, and `LIMIT ALL` not on SQLite. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** The advisory lock id that serialises session evictions on Postgres ("sess" in ASCII). */
const EVICTION_LOCK = 0x73657373;

const keys = (rows: Array<{ id_hash: string }>): string[] => rows.map((r) => r.id_hash);

export class SessionRows {
  constructor(private readonly db: Db) {}

  async insert(key: string, tokenId: string, init: string, now: number): Promise<void> {
    await this.db.q`INSERT INTO mcp_sessions (id_hash, token_hash, init, created_at, last_seen)
      VALUES (${key}, ${tokenId}, ${init}, ${now}, ${now})`;
  }

  async find(key: string): Promise<SessionRecord | null> {
    const [row] = await this.db.q<{ token_hash: string; last_seen: unknown }>`
      SELECT token_hash, last_seen FROM mcp_sessions WHERE id_hash = ${key}`;
    return row ? { tokenId: row.token_hash, lastSeen: int(row.last_seen) } : null;
  }

  /** The initialize params the session was opened with (JSON), or null when the row is gone. */
  async init(key: string): Promise<string | null> {
    const [row] = await this.db.q<{ init: string }>`SELECT init FROM mcp_sessions WHERE id_hash = ${key}`;
    return row?.init ?? null;
  }

  async touch(key: string, now: number): Promise<void> {
    await this.db.q`UPDATE mcp_sessions SET last_seen = ${now} WHERE id_hash = ${key}`;
  }

  /** True when the row existed. */
  async delete(key: string): Promise<boolean> {
    return (await this.db.q`DELETE FROM mcp_sessions WHERE id_hash = ${key} RETURNING id_hash`).length > 0;
  }

  /** Deletes the token's sessions; their keys. */
  async deleteToken(tokenId: string): Promise<string[]> {
    return keys(await this.db.q<{ id_hash: string }>`DELETE FROM mcp_sessions WHERE token_hash = ${tokenId} RETURNING id_hash`);
  }

  /** Deletes sessions idle since `cutoff` or longer; their keys. */
  async deleteIdle(cutoff: number): Promise<string[]> {
    return keys(await this.db.q<{ id_hash: string }>`DELETE FROM mcp_sessions WHERE last_seen <= ${cutoff} RETURNING id_hash`);
  }

  async count(): Promise<number> {
    const [row] = await this.db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM mcp_sessions`;
    return int(row!.n);
  }

  async countFor(tokenId: string): Promise<number> {
    const [row] = await this.db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM mcp_sessions WHERE token_hash = ${tokenId}`;
    return int(row!.n);
  }

  /**
   * Deletes the least recently used sessions of `tokenId` beyond `perToken`, then those of anyone
   * beyond `total`, in one transaction (instances sharing the store see either all or none).
   * Returns the deleted keys.
   */
  evict(tokenId: string, perToken: number, total: number): Promise<string[]> {
    return this.db.tx(async (tx) => {
      // Two instances evicting at once would lock overlapping rows in different orders and deadlock
      // (seen on Postgres with 3 instances opening sessions for one token): one eviction at a time.
      if (this.db.dialect === "postgres") await tx`SELECT pg_advisory_xact_lock(${EVICTION_LOCK})`;
      return [
        ...(await this.evictBeyond(tx, tokenId, perToken)),
        ...(await this.evictBeyond(tx, null, total)),
      ];
    });
  }

  /** Inside a transaction: the least recently used sessions (of `tokenId`, or anyone's) beyond `keep`. */
  private async evictBeyond(tx: Sql, tokenId: string | null, keep: number): Promise<string[]> {
    // Two statements rather than `$1 IS NULL OR …`: Postgres cannot type a parameter that is only compared to NULL.
    const rows = tokenId === null
      ? await tx<{ id_hash: string }[]>`
          DELETE FROM mcp_sessions WHERE id_hash IN (SELECT id_hash FROM mcp_sessions
            ORDER BY last_seen DESC, created_at DESC, rowid DESC LIMIT ${NO_LIMIT} OFFSET ${keep}) RETURNING id_hash`
      : await tx<{ id_hash: string }[]>`
          DELETE FROM mcp_sessions WHERE id_hash IN (SELECT id_hash FROM mcp_sessions WHERE token_hash = ${tokenId}
            ORDER BY last_seen DESC, created_at DESC, rowid DESC LIMIT ${NO_LIMIT} OFFSET ${keep}) RETURNING id_hash`;
    return keys(rows);
  }

  /** Which of `keys` still have a row (the rest were ended elsewhere: another instance, a cascade). */
  async existing(wanted: string[]): Promise<Set<string>> {
    if (!wanted.length) return new Set();
    const rows = await this.db.q<{ id_hash: string }>`SELECT id_hash FROM mcp_sessions WHERE id_hash IN ${this.db.list(wanted)}`;
    return new Set(keys(rows));
  }
}
