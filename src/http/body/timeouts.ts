// How long the server waits for a client (docs/design.md §7, docs/decisions.md "HTTP edge"). Without these
// a request that declares a body and stops sending holds its socket for ever, unauthenticated.

export interface HttpTimeouts {
  /**
   * Seconds a connection may go without sending us a byte before Bun closes it. Bun counts only
   * what it reads (not what it writes) and checks every 4 s, so 30 s closes after 28–32 s.
   * Lifted while an authenticated /mcp request runs (a tool call, the SSE stream): see idle-lift.ts.
   */
  idleSeconds: number;
  /** A form body (≤ 64 KB, /oauth/connect, /oauth/token, /oauth/revoke) must arrive whole within this. */
  formBodyMs: number;
  /** An /mcp body (≤ 32 MB, after the Bearer check) must arrive whole within this: 32 MB at ~1 Mbit/s. */
  mcpBodyMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { idleSeconds: 30, formBodyMs: 30_000, mcpBodyMs: 300_000 };

export const timeoutsOf = (deps: { timeouts?: HttpTimeouts }): HttpTimeouts => deps.timeouts ?? DEFAULT_HTTP_TIMEOUTS;
