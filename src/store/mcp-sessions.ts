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

/** The caps a new session is checked against (src/mcp/transport/sessions.ts SESSION_LIMITS). */
export interface SessionCaps {
  perToken: number;
  /** All the sessions of one registered client's tokens (the configured client is shared by everyone: not counted). */
  perClient: number;
  total: number;
}

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
   * Makes room after `newKey` was inserted for `tokenId`, in one transaction (instances sharing the
   * store see all or none of it), by the policy of docs/decisions.md "Per-account limits": the
   * token's own least recently used sessions beyond `caps.perToken`; then, when the token's client
   * registered itself, that client's beyond `caps.perClient`; then, while more than `caps.total` are
   * held, one session of the owner (the mailbox login behind the grant) holding the most — never of
   * another owner holding as few as the newcomer's. When nobody holds more than the newcomer's owner,
   * the newcomer's owner gives up its own least recently used session, which is `newKey` itself when
   * it holds no other: the new session is then refused. Returns the deleted keys.
   *
   * Owner: the mailbox login behind a session's grant (migration 9), or the grant itself for grants
   * made before it; every session has a grant (rows go with their token, tokens with their grant).
   */
  evict(tokenId: string, caps: SessionCaps): Promise<string[]> {
    return this.db.tx(async (tx) => {
      // Two instances evicting at once would lock overlapping rows in different orders and deadlock
      // (seen on Postgres with 3 instances opening sessions for one token): one eviction at a time.
      if (this.db.dialect === "postgres") await tx`SELECT pg_advisory_xact_lock(${EVICTION_LOCK})`;
      const gone = await this.beyondForToken(tx, tokenId, caps.perToken);
      const [client] = await tx<{ client_id: string }[]>`
        SELECT g.client_id FROM tokens t JOIN grants g ON g.id = t.grant_id JOIN clients c ON c.id = g.client_id
         WHERE t.token_hash = ${tokenId}`;
      if (client) gone.push(...(await this.beyondForClient(tx, client.client_id, caps.perClient)));
      const [me] = await tx<{ owner: string }[]>`
        SELECT COALESCE(g.mailbox_key, g.id) AS owner FROM tokens t JOIN grants g ON g.id = t.grant_id WHERE t.token_hash = ${tokenId}`;
      for (let over = (await this.total(tx)) - caps.total; over > 0 && me; over--) {
        const victim = await this.fairVictim(tx, me.owner);
        gone.push(...keys(await tx<{ id_hash: string }[]>`
          DELETE FROM mcp_sessions WHERE id_hash = (
            SELECT s.id_hash FROM mcp_sessions s JOIN tokens t ON t.token_hash = s.token_hash JOIN grants g ON g.id = t.grant_id
             WHERE COALESCE(g.mailbox_key, g.id) = ${victim} ORDER BY s.last_seen, s.created_at, s.rowid LIMIT 1) RETURNING id_hash`));
      }
      return gone;
    });
  }

  /** Whose session goes at the total cap: the heaviest other owner if it holds more than `mine`, else `mine`. */
  private async fairVictim(tx: Sql, mine: string): Promise<string> {
    const [top] = await tx<{ owner: string; n: unknown }[]>`
      SELECT COALESCE(g.mailbox_key, g.id) AS owner, COUNT(*) AS n
        FROM mcp_sessions s JOIN tokens t ON t.token_hash = s.token_hash JOIN grants g ON g.id = t.grant_id
       WHERE COALESCE(g.mailbox_key, g.id) <> ${mine} GROUP BY COALESCE(g.mailbox_key, g.id) ORDER BY COUNT(*) DESC LIMIT 1`;
    const [own] = await tx<{ n: unknown }[]>`
      SELECT COUNT(*) AS n FROM mcp_sessions s JOIN tokens t ON t.token_hash = s.token_hash JOIN grants g ON g.id = t.grant_id
       WHERE COALESCE(g.mailbox_key, g.id) = ${mine}`;
    return top && int(top.n) > int(own!.n) ? top.owner : mine;
  }

  private async total(tx: Sql): Promise<number> {
    const [row] = await tx<{ n: unknown }[]>`SELECT COUNT(*) AS n FROM mcp_sessions`;
    return int(row!.n);
  }

  /** Inside a transaction: the token's least recently used sessions beyond `keep`. */
  private async beyondForToken(tx: Sql, tokenId: string, keep: number): Promise<string[]> {
    return keys(await tx<{ id_hash: string }[]>`
      DELETE FROM mcp_sessions WHERE id_hash IN (SELECT id_hash FROM mcp_sessions WHERE token_hash = ${tokenId}
        ORDER BY last_seen DESC, created_at DESC, rowid DESC LIMIT ${NO_LIMIT} OFFSET ${keep}) RETURNING id_hash`);
  }

  /** Inside a transaction: the least recently used sessions of a registered client's tokens beyond `keep`. */
  private async beyondForClient(tx: Sql, clientId: string, keep: number): Promise<string[]> {
    return keys(await tx<{ id_hash: string }[]>`
      DELETE FROM mcp_sessions WHERE id_hash IN (
        SELECT s.id_hash FROM mcp_sessions s JOIN tokens t ON t.token_hash = s.token_hash JOIN grants g ON g.id = t.grant_id
         WHERE g.client_id = ${clientId} ORDER BY s.last_seen DESC, s.created_at DESC, s.rowid DESC LIMIT ${NO_LIMIT} OFFSET ${keep}) RETURNING id_hash`);
  }

  /** Which of `keys` still have a row (the rest were ended elsewhere: another instance, a cascade). */
  async existing(wanted: string[]): Promise<Set<string>> {
    if (!wanted.length) return new Set();
    const rows = await this.db.q<{ id_hash: string }>`SELECT id_hash FROM mcp_sessions WHERE id_hash IN ${this.db.list(wanted)}`;
    return new Set(keys(rows));
  }
}
