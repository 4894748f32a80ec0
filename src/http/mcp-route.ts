// /mcp: MCP Streamable HTTP (POST, GET, DELETE) behind the Bearer guard. One McpServer + transport
// per session, owned by the token that opened it. Checks run in this order, each with its status:
//   1. Origin present and not allowed -> 403 (first: a foreign page learns nothing, not even 401)
//   2. Bearer token missing/invalid   -> 401 with WWW-Authenticate (DESIGN §2)
//   3. body over 32 MB -> 413; not whole within mcpBodyMs -> 408; not JSON -> 400; a write tool
//      called without email:write -> 403
//      with WWW-Authenticate error="insufficient_scope" (MCP scope challenge)
//   4. no Mcp-Session-Id: initialize opens a session; anything else -> 400
//   5. unknown, expired or another token's session -> 404
// Then the SDK transport answers (406/415 for bad Accept/Content-Type, 400 for bad protocol version).
import { randomUUID } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Server } from "bun";
import { Elysia } from "elysia";
import { isInitialize, primeSse, readJsonBody, rpcError, sendWhole } from "../mcp/body.ts";
import { InFlight } from "../mcp/inflight.ts";
import { plainRpcErrors } from "../mcp/plain-errors.ts";
import { createMcpServer, type TokenExtra } from "../mcp/server.ts";
import { missingScope } from "../mcp/scope.ts";
import { checkBearer, insufficientScopeChallenge, type BearerAuth } from "../oauth/bearer.ts";
import { LastUsed } from "../oauth/last-used.ts";
import { closeSmtp } from "../mail/smtp.ts";
import type { AppDeps } from "./app.ts";

import { liftIdleTimeout } from "./idle-lift.ts";
import { allowedOrigins } from "./security.ts";
import { timeoutsOf } from "./timeouts.ts";

type Srv = Server<unknown> | null | undefined;

export function mcpRoutes(deps: AppDeps) {
  const inflight = new InFlight();
  // A revoked token loses its sessions and its IMAP connection at once (DESIGN §3); its calls in
  // flight are answered with an error first, so no client waits on a session being torn down.
  deps.events.onRevoked(async (tokenId) => {
    inflight.revoke(tokenId);
    deps.imap.closeToken(tokenId);
    closeSmtp(tokenId);
    await deps.sessions.closeToken(tokenId);
  });
  const origins = allowedOrigins(deps.config);
  const lastUsed = new LastUsed(deps.clock, (grantId) => deps.grants.touchGrant(grantId), deps.log);
  const handle = ({ request, server }: { request: Request; server: Srv }) => handleMcp(deps, origins, inflight, lastUsed, request, server);
  return new Elysia({ name: "mcp" })
    .post("/mcp", handle, { parse: "none" })
    .get("/mcp", handle)
    .delete("/mcp", handle);
}

async function handleMcp(deps: AppDeps, origins: Set<string>, inflight: InFlight, lastUsed: LastUsed, request: Request, server: Srv): Promise<Response> {
  const origin = request.headers.get("origin");
  if (origin !== null && !origins.has(origin)) return rpcError(403, -32000, "Forbidden: this Origin may not use /mcp");
  const bearer = checkBearer(deps.grants, deps.config.baseUrl, request.headers.get("authorization"));
  if (!bearer.ok) return bearer.response;
  lastUsed.seen(bearer.auth.record.grantId);
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
  const work = answer(deps, request, bearer.auth, body).catch((err) => {
    restore();
    throw err;
  });
  if (request.method === "GET") return primeSse(await work, restore);
  // Revocation answers a call in flight at once (src/mcp/inflight.ts); the connection's timeout
  // comes back then too, whatever the abandoned call still does.
  return inflight.answer(bearer.auth.record.id, body, work.then((r) => sendWhole(r, restore)), restore);
}

async function answer(deps: AppDeps, request: Request, auth: BearerAuth, body: unknown): Promise<Response> {
  const authInfo = toAuthInfo(deps, auth);
  const sessionId = request.headers.get("mcp-session-id");
  if (!sessionId) {
    if (request.method === "POST" && isInitialize(body)) return openSession(deps, auth, request, body, authInfo);
    return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required (send initialize first)");
  }
  const session = deps.sessions.use(sessionId, auth.record.id);
  if (!session) return rpcError(404, -32001, "Session not found: it ended, expired or belongs to another token; initialize a new one");
  return session.transport.handleRequest(request, { parsedBody: body, authInfo });
}

function toAuthInfo(deps: AppDeps, auth: BearerAuth): AuthInfo {
  const extra: TokenExtra = { tokenId: auth.record.id, grantId: auth.record.grantId };
  return {
    token: auth.token,
    clientId: deps.config.clientId,
    scopes: auth.scopes,
    expiresAt: Math.floor(auth.record.expiresAt / 1000),
    extra: { ...extra },
  };
}

/** Initialize: a new server + transport; kept only if the transport accepted the request. */
async function openSession(deps: AppDeps, auth: BearerAuth, request: Request, body: unknown, authInfo: AuthInfo): Promise<Response> {
  const server = createMcpServer({
    grants: deps.grants, activity: deps.activity, imap: deps.imap, calls: deps.calls, sendBudget: deps.sendBudget, log: deps.log, version: deps.config.version,
  });
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => deps.sessions.add({ id, tokenId: auth.record.id, server, transport }),
    onsessionclosed: (id) => void deps.sessions.close(id, "deleted by client"),
    // Not enableJsonResponse, though plain JSON answers are a little faster: in SDK 1.32 that mode
    // keeps every answered request in the transport until the session ends (typescript-sdk#2559)
    // and leaves an in-flight POST hanging if the session closes under it.
  });
  plainRpcErrors(transport);
  await server.connect(transport);
  const response = await transport.handleRequest(request, { parsedBody: body, authInfo });
  if (!transport.sessionId) await server.close(); // rejected (e.g. 406): nothing to keep
  return response;
}
