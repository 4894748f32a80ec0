// Puts an app on a socket. The fetch wrapper writes one log line per request: method, path WITHOUT
// the query (authorize and callback queries carry state, challenges and codes), status, duration.
// Headers and bodies are never logged.
import type { Server } from "bun";
import type { Logger } from "../log.ts";
import { MCP_BODY_LIMIT } from "../mcp/body.ts";
import type { App } from "./app.ts";

export interface ServeOptions {
  hostname: string;
  port: number;
  log: Logger;
}

export function serve(app: App, { hostname, port, log }: ServeOptions): Server<undefined> {
  const server = Bun.serve({
    hostname,
    port,
    // An SSE stream may sit quiet for minutes between events; Bun's default 10 s would cut it.
    idleTimeout: 0,
    // Elysia's default reusePort would let a second instance bind the same port silently.
    reusePort: false,
    // A backstop above the app's own limits (32 MB for /mcp, 64 KB for forms), which answer with
    // proper headers; Bun's own 413 would carry none of the security headers.
    maxRequestBodySize: MCP_BODY_LIMIT + 8 * 1024 * 1024,
    async fetch(request) {
      const t0 = performance.now();
      const response = await app.fetch(request);
      log.info("request", {
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        ms: Math.round(performance.now() - t0),
      });
      return response;
    },
  });
  // Elysia hands `server` to handlers (for requestIP); it sets it only in its own listen().
  (app as unknown as { server: Server<undefined> }).server = server;
  return server;
}
