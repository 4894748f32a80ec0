// Session bookkeeping for /mcp: which McpServer + transport serves which Mcp-Session-Id, which
// token owns it, and when it was last used (30 minutes of inactivity end it: SPEC Limits).
// Memory is bounded twice (docs/decisions.md "Per-account limits"): per token and for the whole
// server, each by closing the least recently used session. A closed session answers 404 like an
// expired one, and MCP clients answer a 404 by initializing a new session (MCP Streamable HTTP,
// "Session Management"), so eviction costs a well-behaved client one round trip.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";

export interface SessionLimits {
  /** Inactivity that ends a session. */
  idleMs: number;
  /** Sessions held at once by all tokens together (~85 KB each, measured). */
  maxSessions: number;
  /** Sessions one token may hold; a client that never DELETEs cannot crowd out everyone else. */
  maxPerToken: number;
}

export const SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, maxSessions: 1_000, maxPerToken: 100 };
export const SESSION_IDLE_MS = SESSION_LIMITS.idleMs;
export const MAX_SESSIONS_PER_TOKEN = SESSION_LIMITS.maxPerToken;

export interface Session {
  id: string;
  /** TokenRecord.id of the token that opened it; no other token may use it. */
  tokenId: string;
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
}

export class SessionStore {
  /** Every live session, least recently used first (a use moves it to the end). */
  private readonly sessions = new Map<string, Session>();
  /** Each token's session ids, least recently used first. */
  private readonly byToken = new Map<string, Set<string>>();
  readonly limits: SessionLimits;

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
    limits: Partial<SessionLimits> = {},
  ) {
    this.limits = { ...SESSION_LIMITS, ...limits };
  }

  get size(): number {
    return this.sessions.size;
  }

  get idleMs(): number {
    return this.limits.idleMs;
  }

  /** Sessions `tokenId` holds now. */
  countFor(tokenId: string): number {
    return this.byToken.get(tokenId)?.size ?? 0;
  }

  /** Registers a new session; past either cap the least recently used session (the token's, then anyone's) is closed. */
  add(session: Omit<Session, "lastSeen">): void {
    const mine = this.byToken.get(session.tokenId);
    if (mine && mine.size >= this.limits.maxPerToken) {
      void this.close(first(mine)!, "too many sessions for one token");
    }
    if (this.sessions.size >= this.limits.maxSessions) {
      void this.close(first(this.sessions.keys())!, "server session cap reached");
    }
    this.sessions.set(session.id, { ...session, lastSeen: this.clock() });
    this.byToken.set(session.tokenId, (this.byToken.get(session.tokenId) ?? new Set()).add(session.id));
  }

  /**
   * The live session `id` owned by `tokenId`, touched; null when unknown, expired, evicted or
   * another token's (all answer 404, so a session id reveals nothing about other users).
   */
  use(id: string, tokenId: string): Session | null {
    const s = this.sessions.get(id);
    if (!s) return null;
    if (this.expired(s)) {
      void this.close(id, "expired");
      return null;
    }
    if (s.tokenId !== tokenId) return null;
    s.lastSeen = this.clock();
    // Re-insertion keeps both maps in least-recently-used order, so eviction is O(1).
    this.sessions.delete(id);
    this.sessions.set(id, s);
    const mine = this.byToken.get(tokenId)!;
    mine.delete(id);
    mine.add(id);
    return s;
  }

  private expired(s: Session): boolean {
    return this.clock() - s.lastSeen >= this.limits.idleMs;
  }

  /** Ends a session: its SSE streams close and its server is released. Idempotent. */
  async close(id: string, reason: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    const mine = this.byToken.get(s.tokenId);
    mine?.delete(id);
    if (mine?.size === 0) this.byToken.delete(s.tokenId);
    this.log.info("mcp session closed", { session: id.slice(0, 8), reason });
    await s.server.close().catch(() => {});
  }

  async closeToken(tokenId: string, reason = "token revoked"): Promise<void> {
    const ids = [...(this.byToken.get(tokenId) ?? [])];
    await Promise.all(ids.map((id) => this.close(id, reason)));
  }

  /** Closes every session idle for idleMs. Called periodically (and by tests after clock.advance). */
  async sweep(): Promise<void> {
    const stale: string[] = [];
    for (const s of this.sessions.values()) {
      if (!this.expired(s)) break; // least recently used first: the rest are fresher
      stale.push(s.id);
    }
    await Promise.all(stale.map((id) => this.close(id, "expired")));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id, "shutdown")));
  }
}

const first = <T>(items: Iterable<T>): T | undefined => {
  for (const item of items) return item;
  return undefined;
};
