// 2025-era MCP sessions: which Mcp-Session-Id belongs to which token, and when it was last used
// (30 minutes of inactivity end it: docs/contract.md §17). The truth is a row in the store
// (src/store/mcp-sessions.ts), so a restarted server, or another instance on the same store, serves
// a session it did not open; this process keeps only a cache of live session objects (the MCP
// server and transport, with its open SSE streams), rebuilt from the row when missing.
// The caps (docs/decisions.md "Per-account limits") count rows. A token, and a client that registered
// itself, hit their own caps first and lose their own least recently used session; at the server-wide
// cap the owner (the mailbox) holding the most gives one up, so one owner cannot push out another who
// holds fewer (before, the least recently used session of *anyone* went: ten tokens opening 1,000
// sessions ended another person's stream). A closed session answers 404 like an expired one, and MCP
// clients answer a 404 by initializing a new session (MCP Streamable HTTP, "Session Management"): one
// round trip. Only when every owner holds one session is a newcomer refused (503).
import type { Clock } from "../../clock.ts";
import type { Logger } from "../../log.ts";
import { sessionKey, type SessionRows } from "../../store/mcp-sessions.ts";

export interface SessionLimits {
  /** Inactivity that ends a session. */
  idleMs: number;
  /** Sessions held at once by all tokens together (~85 KB each when cached, measured). */
  maxSessions: number;
  /** Sessions one token may hold; a client that never DELETEs cannot crowd out everyone else. */
  maxPerToken: number;
  /**
   * Sessions the tokens of one registered client may hold together: an app connecting many mailboxes
   * (many tokens) meets a cap of its own too. The configured client is everyone's: not counted.
   */
  maxPerClient: number;
}

export const SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, maxSessions: 1_000, maxPerToken: 100, maxPerClient: 200 };

/**
 * Last activity is written at most once a second per session: a session used in a burst costs one
 * write, not one per call, and expiry (30 min) and the least-recently-used order keep 1 s precision.
 */
const TOUCH_EVERY_MS = 1_000;

/** The in-memory side of a session: whatever serves its requests. Closing it ends its SSE streams. */
export interface LiveSession {
  close(): Promise<void>;
}

interface Cached<L extends LiveSession> {
  tokenId: string;
  live: Promise<L>;
}

/** Rebuilds a session's live objects from its id and initialize params (a restart, another instance). */
export type Restore<L extends LiveSession> = (sessionId: string, init: string) => Promise<L>;

export class SessionStore<L extends LiveSession = LiveSession> {
  /** Live sessions by store key, least recently used first (a use moves one to the end). */
  private readonly cache = new Map<string, Cached<L>>();
  readonly limits: SessionLimits;

  constructor(
    private readonly rows: SessionRows,
    private readonly clock: Clock,
    private readonly log: Logger,
    limits: Partial<SessionLimits> = {},
  ) {
    this.limits = { ...SESSION_LIMITS, ...limits };
  }

  /** Sessions in the store (all instances). */
  size(): Promise<number> {
    return this.rows.count();
  }

  get idleMs(): number {
    return this.limits.idleMs;
  }

  /** Live session objects this process holds (tests, health). */
  get cached(): number {
    return this.cache.size;
  }

  /** Sessions `tokenId` holds now. */
  countFor(tokenId: string): Promise<number> {
    return this.rows.countFor(tokenId);
  }

  /**
   * Records a new session (its initialize succeeded) and makes room by the caps (SessionRows.evict).
   * False when the session itself had to go (every owner holds one session at the server-wide cap):
   * it is not kept, and the caller refuses the initialize and closes `live`.
   */
  async add(sessionId: string, tokenId: string, init: string, live: L): Promise<boolean> {
    const key = sessionKey(sessionId);
    // The row first: the cache only ever holds sessions that have one (a failed insert caches nothing).
    await this.rows.insert(key, tokenId, init, this.clock());
    const { maxPerToken: perToken, maxPerClient: perClient, maxSessions: total } = this.limits;
    const gone = await this.rows.evict(tokenId, { perToken, perClient, total });
    for (const other of gone) if (other !== key) void this.drop(other, "session cap reached");
    if (gone.includes(key)) return false;
    this.remember(key, tokenId, Promise.resolve(live));
    return true;
  }

  /**
   * The live session `sessionId` owned by `tokenId`, touched, rebuilt with `restore` when this process
   * does not hold it; null when unknown, expired, evicted or another token's (all answer 404, so a
   * session id reveals nothing about other users).
   */
  async use(sessionId: string, tokenId: string, restore: Restore<L>): Promise<L | null> {
    const key = sessionKey(sessionId);
    const row = await this.rows.find(key);
    const now = this.clock();
    if (!row || now - row.lastSeen >= this.limits.idleMs) {
      // Gone from the store (ended here or elsewhere) or expired: nobody may use it any more.
      if (row) await this.rows.delete(key);
      await this.drop(key, row ? "expired" : "ended elsewhere");
      return null;
    }
    if (row.tokenId !== tokenId) return null;
    if (now - row.lastSeen >= TOUCH_EVERY_MS) await this.rows.touch(key, now);
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key); // re-inserted last: the map stays in least-recently-used order
      this.cache.set(key, cached);
      return cached.live;
    }
    return this.rebuild(key, sessionId, tokenId, restore);
  }

  /** The live objects of a session that has a row but none here, from its initialize params. */
  private async rebuild(key: string, sessionId: string, tokenId: string, restore: Restore<L>): Promise<L | null> {
    const init = await this.rows.init(key);
    if (init === null) return null;
    // A request that came in alongside (a client's GET stream and its POST after a restart) may have
    // started the rebuild while we read the row: one live session, or the other's streams outlive
    // every close (revocation, DELETE, expiry), which reaches only the cached one. Its failure is
    // logged and the session ended by the request that started it.
    const raced = this.cache.get(key);
    if (raced) return raced.live.catch(() => null);
    const live = restore(sessionId, init);
    this.remember(key, tokenId, live);
    try {
      const restored = await live;
      this.log.info("mcp session restored", { session: key.slice(0, 8) });
      return restored;
    } catch (err) {
      // A row this build cannot rebuild (e.g. written by a newer one): end it, the client starts anew.
      this.log.error("mcp session restore failed", { session: key.slice(0, 8), error: (err as Error).message });
      await this.close(sessionId, "restore failed");
      return null;
    }
  }

  /** Whether `sessionId` is a live session of `tokenId` (its row, unexpired), without touching or rebuilding it. */
  async owns(sessionId: string, tokenId: string): Promise<boolean> {
    const row = await this.rows.find(sessionKey(sessionId));
    return !!row && row.tokenId === tokenId && this.clock() - row.lastSeen < this.limits.idleMs;
  }

  /** Ends a session for good: its row and its live objects. Idempotent. */
  async close(sessionId: string, reason: string): Promise<void> {
    const key = sessionKey(sessionId);
    await this.rows.delete(key);
    await this.drop(key, reason);
  }

  async closeToken(tokenId: string, reason = "token revoked"): Promise<void> {
    const keys = new Set(await this.rows.deleteToken(tokenId));
    for (const [key, c] of this.cache) if (c.tokenId === tokenId) keys.add(key);
    await Promise.all([...keys].map((key) => this.drop(key, reason)));
  }

  /**
   * Deletes sessions idle for idleMs, and lets go of live objects whose rows are gone (ended by
   * another instance, or by their token's expiry). Called periodically (and by tests after clock.advance).
   */
  async sweep(): Promise<void> {
    const stale = await this.rows.deleteIdle(this.clock() - this.limits.idleMs);
    const alive = await this.rows.existing([...this.cache.keys()]);
    for (const key of this.cache.keys()) if (!alive.has(key)) stale.push(key);
    await Promise.all(stale.map((key) => this.drop(key, "expired")));
  }

  /** Shutdown: closes the live objects (their streams end) but keeps the rows, so clients carry on after a restart. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.cache.keys()].map((key) => this.drop(key, "shutdown")));
  }

  private remember(key: string, tokenId: string, live: Promise<L>): void {
    this.cache.set(key, { tokenId, live });
    // The cache holds at most as many live sessions as the server-wide cap; past it the least
    // recently used one is let go (its row stays: it is rebuilt on its next request).
    if (this.cache.size > this.limits.maxSessions) void this.drop(this.cache.keys().next().value!, "cache full");
  }

  /** Lets go of the live objects of `key`, if this process holds them. */
  private async drop(key: string, reason: string): Promise<void> {
    const c = this.cache.get(key);
    if (!c) return;
    this.cache.delete(key);
    this.log.info("mcp session closed", { session: key.slice(0, 8), reason });
    await c.live.then((l) => l.close()).catch(() => {});
  }
}
