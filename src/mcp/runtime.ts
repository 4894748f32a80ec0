// What the composition root (src/service.ts) builds for /mcp, and the one timer that expires idle
// MCP sessions (30 min) and idle IMAP connections (5 min).
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import { ImapPool, type PoolOptions } from "../mail/imap/pool.ts";
import { closeAllSmtp } from "../mail/smtp/pool.ts";
import { ToolCallLimiter, type CallLimits } from "./call-limit.ts";
import { SendBudget } from "./send-budget.ts";
import type { SessionRows } from "../store/mcp-sessions.ts";
import type { LegacySession } from "./legacy-session.ts";
import { SessionStore, type SessionLimits } from "./sessions.ts";

export interface McpRuntime {
  imap: ImapPool;
  sessions: SessionStore<LegacySession>;
  calls: ToolCallLimiter;
  sendBudget: SendBudget;
}

/** The per-account caps (docs/decisions.md "Per-account limits"); tests lower them. */
export interface McpLimits {
  sessions?: Partial<SessionLimits>;
  calls?: Partial<CallLimits>;
  /** Outgoing attachment bytes one token may have in flight; default the 20 MB of docs/design.md §7. */
  attachmentBytesInFlight?: number;
}

export function createMcpRuntime(
  sessionRows: SessionRows, clock: Clock, log: Logger, pool: Partial<PoolOptions> = {}, limits: McpLimits = {},
): McpRuntime {
  return {
    imap: new ImapPool(clock, log, pool),
    sessions: new SessionStore(sessionRows, clock, log, limits.sessions),
    calls: new ToolCallLimiter(limits.calls),
    sendBudget: new SendBudget(limits.attachmentBytesInFlight),
  };
}

/**
 * Starts the sweeper; the returned stop() also closes every connection and lets go of every live
 * session (shutdown): the sessions' rows stay, so their clients carry on after a restart.
 */
export function startMcpSweeper(rt: McpRuntime, log: Logger, everyMs = 60_000): () => Promise<void> {
  const timer = setInterval(() => {
    rt.imap.sweep();
    rt.sessions.sweep().catch((err) => log.error("session sweep failed", { error: (err as Error).message }));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    rt.imap.closeAll();
    closeAllSmtp();
    await rt.sessions.closeAll();
  };
}
