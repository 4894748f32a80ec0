// /mcp: MCP Streamable HTTP (POST, GET, DELETE) behind the Bearer guard, in both protocol eras
// (docs/design.md §3); who answers, in a session or per request, is src/mcp/transport/endpoint.ts.
// Checks run in this order, each with its status:
//   1. Origin present and not allowed -> 403 (first: a foreign page learns nothing, not even 401)
//   2. Bearer token missing/invalid   -> 401 with WWW-Authenticate (docs/design.md §2)
//   3. body over 32 MB -> 413; not JSON -> 400; a write tool called without email:write -> 403
//      with WWW-Authenticate error="insufficient_scope" (MCP scope challenge)
//   4. no Mcp-Session-Id: a 2026-07-28 POST is served without a session (headers that disagree with
//      the body or are missing: 400 -32020; an unsupported revision: 400 -32022); an initialize opens
//      a session; GET or DELETE from a modern client -> 405; anything else -> 400
//   5. unknown, expired or another token's session -> 404
// Then the SDK transport answers (406/415 for bad Accept/Content-Type, 400 for bad protocol version).
import type { Server } from "bun";
import { Elysia } from "elysia";
import { primeSse, rpcError, sendWhole } from "../../mcp/transport/rpc-body.ts";
import { readJsonBody } from "../body/mcp.ts";
import type { McpAnswering, McpCaller } from "../../mcp/transport/endpoint.ts";
import type { InFlight } from "../../mcp/transport/inflight.ts";
import { missingScope } from "../../mcp/scope.ts";
import { checkBearer, insufficientScopeChallenge, type BearerAuth } from "../../oauth/protocol/bearer.ts";
import { LastUsed } from "../../oauth/lifecycle/last-used.ts";
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import type { Store } from "../../store/store.ts";
import { liftIdleTimeout } from "../body/idle-lift.ts";
import { allowedOrigins } from "../plugins/security.ts";
import { timeoutsOf, type HttpTimeouts } from "../body/timeouts.ts";

type Srv = Server<unknown> | null | undefined;

/** What /mcp needs; src/http/app.ts builds it from the app's dependencies. */
export interface McpRouteOptions {
  config: Pick<Config, "clientHosts" | "baseUrl" | "extraOrigins" | "siteOrigin">;
  store: Pick<Store, "grants">;
  clock: Clock;
  log: Logger;
  /** Answers an authenticated request (src/mcp/transport/endpoint.ts). */
  mcp: McpAnswering;
  timeouts?: HttpTimeouts;
}

export function mcpRoutes(deps: McpRouteOptions) {
  const origins = allowedOrigins(deps.config);
  const lastUsed = new LastUsed(deps.clock, (grantId) => deps.store.grants.touchGrant(grantId), deps.log);
  const mcp: Mcp = { deps, origins, inflight: deps.mcp.runtime.inflight, endpoint: deps.mcp, lastUsed };
  const handle = ({ request, server }: { request: Request; server: Srv }) => handleMcp(mcp, request, server);
  return new Elysia({ name: "mcp" })
    .post("/mcp", handle, { parse: "none" })
    .get("/mcp", handle)
    .delete("/mcp", handle);
}

interface Mcp {
  deps: McpRouteOptions;
  origins: Set<string>;
  inflight: InFlight;
  endpoint: McpAnswering;
  lastUsed: LastUsed;
}

const callerOf = (auth: BearerAuth): McpCaller => ({
  token: auth.token, tokenId: auth.record.id, grantId: auth.record.grantId, scopes: auth.scopes, expiresAt: auth.record.expiresAt,
});

async function handleMcp(mcp: Mcp, request: Request, server: Srv): Promise<Response> {
  const { deps, origins, inflight } = mcp;
  const origin = request.headers.get("origin");
  if (origin !== null && !origins.has(origin)) return rpcError(403, -32000, "Forbidden: this Origin may not use /mcp");
  const bearer = await checkBearer(deps.store.grants, deps.config.baseUrl, request.headers.get("authorization"));
  if (!bearer.ok) return bearer.response;
  mcp.lastUsed.seen(bearer.auth.record.grantId);
  const timeouts = timeoutsOf(deps);
  let body: unknown;
  if (request.method === "POST") {
    const read = await readJsonBody(request, undefined, timeouts.mcpBodyMs);
    if ("error" in read) return read.error;
    body = read.body;
    const needed = missingScope(body, bearer.auth.scopes);
    if (needed) {
      return rpcError(403, -32000, `Forbidden: this access token lacks the ${needed} scope`, {
        "www-authenticate": await insufficientScopeChallenge(deps.config.baseUrl, needed),
      });
    }
  }
  // Authenticated and the body in: the exchange may now outlast the idle timeout (docs/decisions.md).
  const restore = liftIdleTimeout(server, request, timeouts.idleSeconds);
  const work = mcp.endpoint.answer(request, callerOf(bearer.auth), body).catch((err) => {
    restore();
    throw err;
  });
  if (request.method === "GET") return primeSse(await work, restore);
  // Revocation answers a call in flight at once (src/mcp/transport/inflight.ts); the connection's timeout
  // comes back then too, whatever the abandoned call still does.
  return inflight.answer(bearer.auth.record.id, body, work.then((r) => sendWhole(r, restore)), restore);
}
