// /mcp: MCP Streamable HTTP (POST, GET, DELETE) behind the Bearer guard, in both protocol eras
// (docs/design.md §3). A 2025-era request (an initialize, or one carrying Mcp-Session-Id) is served in a
// session: one McpServer + transport per session, owned by the token that opened it; sessions are
// rows in the store, the server objects a per-process cache rebuilt from the row when missing
// (src/mcp/sessions.ts, legacy-session.ts). A 2026-07-28 request (no session; `_meta` and the
// MCP-Protocol-Version / Mcp-Method / Mcp-Name headers) is served by the SDK's per-request handler
// (src/mcp/modern.ts). Checks run in this order, each with its status:
//   1. Origin present and not allowed -> 403 (first: a foreign page learns nothing, not even 401)
//   2. Bearer token missing/invalid   -> 401 with WWW-Authenticate (docs/design.md §2)
//   3. body over 32 MB -> 413; not JSON -> 400; a write tool called without email:write -> 403
//      with WWW-Authenticate error="insufficient_scope" (MCP scope challenge)
//   4. no Mcp-Session-Id: a 2026-07-28 POST is served without a session (headers that disagree with
//      the body or are missing: 400 -32020; an unsupported revision: 400 -32022); an initialize opens
//      a session; GET or DELETE from a modern client -> 405; anything else -> 400
//   5. unknown, expired or another token's session -> 404
// Then the SDK transport answers (406/415 for bad Accept/Content-Type, 400 for bad protocol version).
import type { AuthInfo, McpHttpHandler } from "@modelcontextprotocol/server";
import type { Server } from "bun";
import { Elysia } from "elysia";
import { isInitialize, primeSse, readJsonBody, rpcError, sendWhole } from "../mcp/body.ts";
import { InFlight } from "../mcp/inflight.ts";
import { initRecord, newLegacySession, restoreLegacySession, type LegacySession, type LegacySessionHooks } from "../mcp/legacy-session.ts";
import { createModernHandler, isModernClient, isModernPost } from "../mcp/modern.ts";
import type { McpServerDeps, TokenExtra } from "../mcp/server.ts";
import { missingScope } from "../mcp/scope.ts";
import { checkBearer, insufficientScopeChallenge, type BearerAuth } from "../oauth/bearer.ts";
import { LastUsed } from "../oauth/last-used.ts";
import { closeSmtp } from "../mail/smtp/pool.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { McpRuntime } from "../mcp/runtime.ts";
import type { TokenEvents } from "../oauth/token-events.ts";
import type { Store } from "../store/store.ts";
import { liftIdleTimeout } from "./idle-lift.ts";
import { allowedOrigins } from "./security.ts";
import { timeoutsOf, type HttpTimeouts } from "./timeouts.ts";

type Srv = Server<unknown> | null | undefined;

/** What /mcp needs (the MCP runtime's parts: src/mcp/runtime.ts); src/http/app.ts builds it from the app's dependencies. */
export interface McpRouteOptions extends McpRuntime {
  config: Pick<Config, "clientHosts" | "baseUrl" | "extraOrigins" | "siteOrigin" | "clientId" | "version">;
  store: Pick<Store, "grants" | "activity">;
  clock: Clock;
  log: Logger;
  events: TokenEvents;
  timeouts?: HttpTimeouts;
}

export function mcpRoutes(deps: McpRouteOptions) {
  const inflight = new InFlight();
  // A revoked token loses its sessions and its IMAP connection at once (docs/design.md §3); its calls in
  // flight are answered with an error first, so no client waits on a session being torn down.
  deps.events.onRevoked(async (tokenId) => {
    inflight.revoke(tokenId);
    deps.imap.closeToken(tokenId);
    closeSmtp(tokenId);
    await deps.sessions.closeToken(tokenId);
  });
  const origins = allowedOrigins(deps.config);
  const serverDeps: McpServerDeps = {
    grants: deps.store.grants, activity: deps.store.activity, imap: deps.imap, calls: deps.calls, sendBudget: deps.sendBudget, log: deps.log,
    version: deps.config.version,
  };
  const hooks: LegacySessionHooks = {
    initialized: async () => {}, // new sessions are recorded by openSession, which knows the token
    deleted: (id) => void deps.sessions.close(id, "deleted by client"),
  };
  const modern = createModernHandler(serverDeps, deps.log);
  const lastUsed = new LastUsed(deps.clock, (grantId) => deps.store.grants.touchGrant(grantId), deps.log);
  const mcp: Mcp = { deps, serverDeps, hooks, origins, inflight, modern, lastUsed };
  const handle = ({ request, server }: { request: Request; server: Srv }) => handleMcp(mcp, request, server);
  return new Elysia({ name: "mcp" })
    .post("/mcp", handle, { parse: "none" })
    .get("/mcp", handle)
    .delete("/mcp", handle);
}

interface Mcp {
  deps: McpRouteOptions;
  serverDeps: McpServerDeps;
  hooks: LegacySessionHooks;
  origins: Set<string>;
  inflight: InFlight;
  modern: McpHttpHandler;
  lastUsed: LastUsed;
}

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
        "www-authenticate": insufficientScopeChallenge(deps.config.baseUrl, needed),
      });
    }
  }
  // Authenticated and the body in: the exchange may now outlast the idle timeout (docs/decisions.md).
  const restore = liftIdleTimeout(server, request, timeouts.idleSeconds);
  const work = answer(mcp, request, bearer.auth, body).catch((err) => {
    restore();
    throw err;
  });
  if (request.method === "GET") return primeSse(await work, restore);
  // Revocation answers a call in flight at once (src/mcp/inflight.ts); the connection's timeout
  // comes back then too, whatever the abandoned call still does.
  return inflight.answer(bearer.auth.record.id, body, work.then((r) => sendWhole(r, restore)), restore);
}

/** Steps 4 and 5: the answer of the SDK (a session's transport, or the per-request handler), or a refusal. */
async function answer(mcp: Mcp, request: Request, auth: BearerAuth, body: unknown): Promise<Response> {
  const authInfo = toAuthInfo(mcp.deps, auth);
  const sessionId = request.headers.get("mcp-session-id");
  if (!sessionId) return withoutSession(mcp, auth, request, body, authInfo);
  const restore = (id: string, init: string) => restoreLegacySession(mcp.serverDeps, mcp.hooks, id, init);
  const session = await mcp.deps.sessions.use(sessionId, auth.record.id, restore);
  if (!session) return rpcError(404, -32001, "Session not found: it ended, expired or belongs to another token; initialize a new one");
  return session.transport.handleRequest(request, { parsedBody: body, authInfo });
}

/** Step 4: a 2026-07-28 request, or the initialize that opens a 2025-era session; else a refusal. */
async function withoutSession(mcp: Mcp, auth: BearerAuth, request: Request, body: unknown, authInfo: AuthInfo): Promise<Response> {
  if (request.method === "POST" && (await isModernPost(request, body))) return mcp.modern.fetch(request, { authInfo, parsedBody: body });
  if (request.method === "POST" && isInitialize(body)) return openSession(mcp, auth, request, body, authInfo);
  if (isModernClient(request)) {
    // MCP 2026-07-28 has no sessions: nothing to stream on GET or to end with DELETE.
    return rpcError(405, -32000, "Method Not Allowed: this MCP revision has no sessions; send requests with POST", { allow: "POST" });
  }
  return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required (send initialize first)");
}

function toAuthInfo(deps: McpRouteOptions, auth: BearerAuth): AuthInfo {
  const extra: TokenExtra = { tokenId: auth.record.id, grantId: auth.record.grantId };
  return {
    token: auth.token,
    clientId: deps.config.clientId,
    scopes: auth.scopes,
    expiresAt: Math.floor(auth.record.expiresAt / 1000),
    extra: { ...extra },
  };
}

/** Initialize: a new server + transport, recorded in the store once the transport accepted the request. */
async function openSession(mcp: Mcp, auth: BearerAuth, request: Request, body: unknown, authInfo: AuthInfo): Promise<Response> {
  const init = initRecord(Array.isArray(body) ? body.find((m) => isInitialize(m)) : body);
  const hooks: LegacySessionHooks = {
    ...mcp.hooks,
    initialized: (id, session) => mcp.deps.sessions.add(id, auth.record.id, init, session),
  };
  const session: LegacySession = await newLegacySession(mcp.serverDeps, hooks);
  const response = await session.transport.handleRequest(request, { parsedBody: body, authInfo });
  if (!session.transport.sessionId) await session.close(); // rejected (e.g. 406): nothing to keep
  return response;
}
