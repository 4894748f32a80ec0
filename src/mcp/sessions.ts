// Session bookkeeping for /mcp: which McpServer + transport serves which Mcp-Session-Id, which
// token owns it, and when it was last used (30 minutes of inactivity end it: SPEC Limits).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";

export const SESSION_IDLE_MS = 30 * 60_000;
/** Sessions one token may hold; a client that never DELETEs cannot grow memory without bound. */
export const MAX_SESSIONS_PER_TOKEN = 100;

export interface Session {
  id: string;
  /** TokenRecord.id of the token that opened it; no other token may use it. */
  tokenId: string;
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
    readonly idleMs = SESSION_IDLE_MS,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Registers a new session; past the per-token cap the token's least recently used one is closed. */
  add(session: Omit<Session, "lastSeen">): void {
    const mine = [...this.sessions.values()].filter((s) => s.tokenId === session.tokenId);
    if (mine.length >= MAX_SESSIONS_PER_TOKEN) {
      const oldest = mine.reduce((a, b) => (a.lastSeen <= b.lastSeen ? a : b));
      void this.close(oldest.id, "too many sessions for one token");
    }
    this.sessions.set(session.id, { ...session, lastSeen: this.clock() });
  }

  /**
   * The live session `id` owned by `tokenId`, touched; null when unknown, expired or another
   * token's (all three answer 404, so a session id reveals nothing about other users).
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
    return s;
  }

  private expired(s: Session): boolean {
    return this.clock() - s.lastSeen >= this.idleMs;
  }

  /** Ends a session: its SSE streams close and its server is released. Idempotent. */
  async close(id: string, reason: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    this.log.info("mcp session closed", { session: id.slice(0, 8), reason });
    await s.server.close().catch(() => {});
  }

  async closeToken(tokenId: string, reason = "token revoked"): Promise<void> {
    const ids = [...this.sessions.values()].filter((s) => s.tokenId === tokenId).map((s) => s.id);
    await Promise.all(ids.map((id) => this.close(id, reason)));
  }

  /** Closes every session idle for idleMs. Called periodically (and by tests after clock.advance). */
  async sweep(): Promise<void> {
    const stale = [...this.sessions.values()].filter((s) => this.expired(s)).map((s) => s.id);
    await Promise.all(stale.map((id) => this.close(id, "expired")));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id, "shutdown")));
  }
}
