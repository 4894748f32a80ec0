// Who answers an authenticated /mcp request, in both protocol eras (docs/design.md §3): a 2025-era
// request (an initialize, or one carrying Mcp-Session-Id) is served in a session, one McpServer +
// transport per session, owned by the token that opened it (rows in the store, the live objects a
// per-process cache rebuilt from the row when missing: ./sessions.ts, ./legacy-session.ts); a
// 2026-07-28 request (no session; `_meta` and the MCP-Protocol-Version / Mcp-Method / Mcp-Name
// headers) is served by the SDK's per-request handler (./modern.ts). The HTTP checks before this
// (Origin, Bearer, body, scope) are the route's (src/http/routes/mcp.ts).
import type { AuthInfo, McpHttpHandler } from "@modelcontextprotocol/server";
import type { Logger } from "../../log.ts";
import type { ActivityLog } from "../../store/activity.ts";
import type { GrantMailboxes } from "../../store/grant-mailboxes.ts";
import { rpcError } from "./rpc-body.ts";
import { isInitialize } from "./initialize.ts";
import { responseIds } from "./answer-relay.ts";
import { initRecord, newLegacySession, playInto, restoreLegacySession, type LegacySession, type LegacySessionHooks } from "./legacy-session.ts";
import { createModernHandler, isModernClient, isModernPost } from "./modern.ts";
import type { McpRuntime } from "../runtime.ts";
import type { McpServerDeps, TokenExtra } from "../server.ts";
import type { Sending } from "../confirm/tool-sending.ts";
import type { AnyTool } from "../tools/index.ts";

export interface McpEndpointDeps {
  runtime: McpRuntime;
  activity: ActivityLog;
  /** The mailboxes of each connection (src/store/grant-mailboxes.ts). */
  mailboxes: Pick<GrantMailboxes, "list">;
  log: Logger;
  version: string;
  /** What authInfo.clientId says (the configured client's id). */
  clientId: string;
  /** The send gate's store tables, caps and codecs (src/mcp/confirm/tool-sending.ts). */
  sending: Sending;
  /** {base_url}, for the icons and website the server names (src/mcp/identity.ts). */
  baseUrl: string;
  /** The tools its servers register (src/mcp/tools/index.ts mcpTools). */
  tools: readonly AnyTool[];
}

/** The caller, as the Bearer check found it (src/oauth/protocol/bearer.ts). */
export interface McpCaller {
  token: string;
  tokenId: string;
  grantId: string;
  scopes: string[];
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

const notFound = () => rpcError(404, -32001, "Session not found: it ended, expired or belongs to another token; initialize a new one");

/** What the /mcp route uses of an endpoint (./lazy-endpoint.ts builds one on first use). */
export type McpAnswering = Pick<McpEndpoint, "answer" | "runtime">;

export class McpEndpoint {
  private readonly serverDeps: McpServerDeps;
  private readonly hooks: LegacySessionHooks;
  private readonly modern: McpHttpHandler;

  readonly runtime: McpRuntime;

  constructor(private readonly deps: McpEndpointDeps) {
    const { runtime, log } = deps;
    this.runtime = runtime;
    this.serverDeps = {
      activity: deps.activity, mailboxes: deps.mailboxes, mail: runtime.mail, calls: runtime.calls, sendBudget: runtime.sendBudget, sending: deps.sending, log, version: deps.version,
      tools: deps.tools, baseUrl: deps.baseUrl,
    };
    const relay = runtime.relay;
    this.hooks = {
      initialized: async () => {}, // new sessions are recorded by openSession, which knows the token
      // Awaited by the transport before it answers the DELETE. A store that fails here is logged: a
      // floating rejection would end the process (Bun exits on an unhandled one); the row expires.
      deleted: async (id) => {
        relay?.forget(id);
        await runtime.sessions.close(id, "deleted by client")
          .catch((err: Error) => log.error("mcp session delete failed", { error: err.message }));
      },
      asked: relay ? (id, request, session) => relay.asked(id, request, (body) => playInto(session, id, body)) : undefined,
    };
    this.modern = createModernHandler(this.serverDeps, log);
  }

  /** The answer of the SDK (a session's transport, or the per-request handler), or a refusal: 400, 404 or 405. */
  async answer(request: Request, caller: McpCaller, body: unknown): Promise<Response> {
    const authInfo = this.authInfo(caller);
    const sessionId = request.headers.get("mcp-session-id");
    if (!sessionId) return this.withoutSession(caller, request, body, authInfo);
    const answers = request.method === "POST" ? responseIds(body) : null;
    const relay = this.deps.runtime.relay;
    if (answers && relay && !relay.waitsHere(sessionId, answers)) return this.relayAnswer(caller, sessionId, body);
    const restore = (id: string, init: string) => restoreLegacySession(this.serverDeps, this.hooks, id, init);
    const session = await this.deps.runtime.sessions.use(sessionId, caller.tokenId, restore);
    if (!session) return notFound();
    const response = await session.transport.handleRequest(request, { parsedBody: body, authInfo });
    if (answers) relay?.answered(sessionId, answers);
    return response;
  }

  /**
   * The client's answer to a request this instance did not send (another instance's session object
   * asked, ./answer-relay.ts): filed in the store for the instance that waits, 202 as the transport
   * would answer. Only on a live session of the caller's token.
   */
  private async relayAnswer(caller: McpCaller, sessionId: string, body: unknown): Promise<Response> {
    if (!(await this.deps.runtime.sessions.owns(sessionId, caller.tokenId))) return notFound();
    await this.deps.runtime.relay!.file(sessionId, body);
    return new Response(null, { status: 202 });
  }

  /** A 2026-07-28 request, or the initialize that opens a 2025-era session; else a refusal. */
  private async withoutSession(caller: McpCaller, request: Request, body: unknown, authInfo: AuthInfo): Promise<Response> {
    if (request.method === "POST" && (await isModernPost(request, body))) return this.modern.fetch(request, { authInfo, parsedBody: body });
    if (request.method === "POST" && isInitialize(body)) return this.openSession(caller, request, body, authInfo);
    if (isModernClient(request)) {
      // MCP 2026-07-28 has no sessions: nothing to stream on GET or to end with DELETE.
      return rpcError(405, -32000, "Method Not Allowed: this MCP revision has no sessions; send requests with POST", { allow: "POST" });
    }
    return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required (send initialize first)");
  }

  private authInfo(caller: McpCaller): AuthInfo {
    const extra: TokenExtra = { tokenId: caller.tokenId, grantId: caller.grantId };
    return {
      token: caller.token,
      clientId: this.deps.clientId,
      scopes: caller.scopes,
      expiresAt: Math.floor(caller.expiresAt / 1000),
      extra: { ...extra },
    };
  }

  /**
   * Initialize: a new server + transport, recorded in the store once the transport accepted the
   * request (the SDK awaits `initialized` before it answers). Refused with 503 when the server-wide
   * cap leaves no fair room (./sessions.ts): every owner holds one session already. A store that
   * fails to record it is the server's failure (500, logged by the app), never the client's: the SDK
   * would answer a throwing hook with 400 "Parse error" and the store's own words.
   */
  private async openSession(caller: McpCaller, request: Request, body: unknown, authInfo: AuthInfo): Promise<Response> {
    const init = initRecord(Array.isArray(body) ? body.find((m) => isInitialize(m)) : body);
    let kept = true;
    const failure: { error?: unknown } = {};
    const hooks: LegacySessionHooks = {
      ...this.hooks,
      initialized: async (id, session) => {
        try {
          kept = await this.deps.runtime.sessions.add(id, caller.tokenId, init, session);
        } catch (error) {
          failure.error = error;
          kept = false;
        }
      },
    };
    const session: LegacySession = await newLegacySession(this.serverDeps, hooks);
    const response = await session.transport.handleRequest(request, { parsedBody: body, authInfo });
    if (session.transport.sessionId && kept) return response;
    await session.close(); // rejected (e.g. 406), not recorded, or no room: nothing to keep
    if (kept) return response;
    await response.body?.cancel();
    if ("error" in failure) throw failure.error;
    return rpcError(503, -32000, `The server holds as many MCP sessions as it can (${this.deps.runtime.sessions.limits.maxSessions}), ` +
      "one for each of as many mailboxes: try again later.", { "retry-after": "60" });
  }
}
