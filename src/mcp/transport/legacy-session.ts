// The live objects of one 2025-era session: an McpServer and the SDK's sessionful Streamable HTTP
// transport. Built when a client initializes, or rebuilt from the session's row (src/mcp/transport/sessions.ts)
// when this process does not hold it: after a restart, or on another instance sharing the store.
//
// Rebuilding: the SDK's transport has no option to start in an initialized state (it keeps
// `sessionId` and its "initialized" flag private, set only by an initialize request:
// docs/decisions.md "Sessions in the store"). So the rebuilt pair is brought there the way the
// first one was: the client's own initialize (its params are in the row) and
// notifications/initialized are replayed through the transport's public handleRequest, with the
// session id generator returning the stored id. Server and transport then hold exactly the state
// the original handshake gave them (negotiated version, client capabilities and name); the replayed
// answers go nowhere.
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type McpServer } from "@modelcontextprotocol/server";
import { plainRpcErrors } from "../plain-errors.ts";
import { createMcpServer, type McpServerDeps } from "../server.ts";
import type { LiveSession } from "./sessions.ts";

export interface LegacySession extends LiveSession {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
}

export interface LegacySessionHooks {
  /** The transport accepted an initialize and made up `sessionId` (new sessions only). */
  initialized(sessionId: string, session: LegacySession): Promise<void>;
  /** The client ended the session with DELETE (awaited before the DELETE is answered). */
  deleted(sessionId: string): Promise<void>;
  /** The server sent request `id` to the client (an elicitation); its answer may reach another instance (./answer-relay.ts). */
  asked?(sessionId: string, id: string | number, session: LegacySession): void;
}

/** At most this much of a client's initialize params is kept in its row; beyond it, only what identifies it. */
const MAX_INIT_CHARS = 8_192;

/** What a session's row keeps of its initialize request: the params to replay it with, bounded. */
export function initRecord(initialize: unknown): string {
  const params = ((initialize as { params?: Record<string, unknown> }).params ?? {}) as {
    protocolVersion?: unknown; capabilities?: unknown; clientInfo?: { name?: unknown; version?: unknown };
  };
  const record = JSON.stringify({ protocolVersion: params.protocolVersion, capabilities: params.capabilities ?? {}, clientInfo: params.clientInfo });
  if (record.length <= MAX_INIT_CHARS) return record;
  const clip = (v: unknown) => String(v ?? "").slice(0, 200);
  return JSON.stringify({
    protocolVersion: clip(params.protocolVersion), capabilities: {},
    clientInfo: { name: clip(params.clientInfo?.name), version: clip(params.clientInfo?.version) },
  });
}

function build(deps: McpServerDeps, hooks: LegacySessionHooks, sessionId: string | null): LegacySession {
  const server = createMcpServer(deps);
  const session: LegacySession = {
    server,
    transport: new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId ?? randomUUID(),
      // A rebuilt session is already in the store: only a new one is announced.
      onsessioninitialized: sessionId ? undefined : (id) => hooks.initialized(id, session),
      onsessionclosed: (id) => hooks.deleted(id),
      // Not enableJsonResponse, though plain JSON answers are a little faster: in that mode a POST
      // whose session closes under it is never answered (close() drops its pending JSON answer;
      // SDK 1.32 and 2.4), and in 1.32 it kept every answered request until the session ended
      // (docs/decisions.md "/mcp", Response mode). src/mcp/transport/rpc-body.ts sends a finished SSE
      // answer in one write instead.
    }),
    close: () => server.close(),
  };
  plainRpcErrors(session.transport); // zod issue dumps become plain words (../plain-errors.ts)
  noteRequests(session, hooks);
  return session;
}

/** Tells `hooks.asked` of every request the server sends to the client on this session. */
function noteRequests(session: LegacySession, hooks: LegacySessionHooks): void {
  const { transport } = session;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { method?: unknown; id?: unknown };
    if (typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number") && transport.sessionId) {
      hooks.asked?.(transport.sessionId, m.id, session);
    }
    return send(message, options);
  };
}

/** Plays a JSON-RPC body (a client's answer relayed from another instance) into the session's transport. */
export async function playInto(session: LegacySession, sessionId: string, body: unknown): Promise<void> {
  const version = session.server.server.getNegotiatedProtocolVersion();
  const request = new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId,
      ...(version ? { "mcp-protocol-version": version } : {}),
    },
    body: JSON.stringify(body),
  });
  await (await session.transport.handleRequest(request, { parsedBody: body })).text();
}

/** A new session's server and transport, connected, waiting for the client's initialize. */
export async function newLegacySession(deps: McpServerDeps, hooks: LegacySessionHooks): Promise<LegacySession> {
  const session = build(deps, hooks, null);
  await session.server.connect(session.transport);
  return session;
}

/** Rebuilds session `sessionId` from its stored initialize params (see the header comment). */
export async function restoreLegacySession(deps: McpServerDeps, hooks: LegacySessionHooks, sessionId: string, init: string): Promise<LegacySession> {
  const session = build(deps, hooks, sessionId);
  await session.server.connect(session.transport);
  const params = JSON.parse(init) as { protocolVersion?: string };
  await replay(session, { jsonrpc: "2.0", id: 0, method: "initialize", params }, {}, 200);
  const headers: Record<string, string> = { "mcp-session-id": sessionId };
  if (params.protocolVersion) headers["mcp-protocol-version"] = params.protocolVersion;
  await replay(session, { jsonrpc: "2.0", method: "notifications/initialized" }, headers, 202);
  if (session.transport.sessionId !== sessionId) throw new Error("the replayed handshake did not restore the session");
  return session;
}

async function replay(session: LegacySession, message: object, headers: Record<string, string>, expected: number): Promise<void> {
  const request = new Request("http://localhost/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(message),
  });
  const response = await session.transport.handleRequest(request, { parsedBody: message });
  const text = await response.text(); // drains the answer, which nobody else will read
  if (response.status !== expected) {
    await session.server.close().catch(() => {});
    throw new Error(`replayed ${(message as { method: string }).method} answered ${response.status}: ${text.slice(0, 200)}`);
  }
}
