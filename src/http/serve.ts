// Puts an app on a socket. The fetch wrapper writes one log line per request: method, path WITHOUT
// the query (authorize and callback queries carry state, challenges and codes), status, duration.
// Headers and bodies are never logged.
import type { Server } from "bun";
import type { Logger } from "../log.ts";
import { MCP_BODY_LIMIT } from "./body/mcp.ts";
import type { App } from "./app.ts";
import { internalError } from "./plugins/errors.ts";
import { pathOf, wellFormedHost } from "./plugins/host-header.ts";
import { json } from "./responses.ts";
import { SECURITY_HEADERS } from "./plugins/security.ts";
import { DEFAULT_HTTP_TIMEOUTS } from "./body/timeouts.ts";

export interface ServeOptions {
  hostname: string;
  port: number;
  log: Logger;
  /** The app's timeouts.idleSeconds (default 30). */
  idleSeconds?: number;
}

const badHost = () =>
  json(400, { error: "invalid_request", error_description: "the Host header must be a host name or address, with an optional port" },
    { ...SECURITY_HEADERS, connection: "close" });

export function serve(app: App, { hostname, port, log, idleSeconds = DEFAULT_HTTP_TIMEOUTS.idleSeconds }: ServeOptions): Server<undefined> {
  const server = Bun.serve({
    hostname,
    port,
    // Never Bun's development error page (stack, source lines, working directory), whatever
    // NODE_ENV says; a throw that escapes the app is answered by `error` below.
    development: false,
    // A connection that sends nothing is closed; an authenticated /mcp request (tool call, SSE
    // stream) lifts this for its own connection while it runs (idle-lift.ts).
    idleTimeout: idleSeconds,
    // Elysia's default reusePort would let a second instance bind the same port silently.
    reusePort: false,
    // A backstop above the app's own limits (32 MB for /mcp, 64 KB for forms), which answer with
    // proper headers; Bun's own 413 would carry none of the security headers.
    maxRequestBodySize: MCP_BODY_LIMIT + 8 * 1024 * 1024,
    async fetch(request) {
      const t0 = performance.now();
      const response = wellFormedHost(request) ? await app.fetch(request) : badHost();
      log.info("request", {
        method: request.method,
        path: pathOf(request.url),
        status: response.status,
        ms: Math.round(performance.now() - t0),
      });
      return response;
    },
    error(error) {
      log.error("unhandled error outside the app", { error: `${error.name}: ${error.message}` });
      return internalError(SECURITY_HEADERS);
    },
  });
  // Elysia hands `server` to handlers (for requestIP); it sets it only in its own listen().
  (app as unknown as { server: Server<undefined> }).server = server;
  return server;
}
