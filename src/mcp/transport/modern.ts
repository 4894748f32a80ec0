// The 2026-07-28 era of /mcp (MCP revision 2026-07-28): no initialize, no session. Every POST carries
// its protocol version, capabilities and client identity in `_meta`, and the MCP-Protocol-Version /
// Mcp-Method / Mcp-Name headers, which must agree with the body. The SDK's createMcpHandler (v2)
// serves it: it checks the headers (mismatch or missing: 400 with JSON-RPC -32020; an unsupported
// revision: 400 with -32022 and data.supported), answers server/discover, and serves each request on
// an McpServer built for it alone (src/mcp/server.ts; its tool schemas are converted once per
// process, src/mcp/tool-schema.ts). `legacy: "reject"`: 2025-era traffic never reaches it, the
// route sends that to the sessions (src/http/routes/mcp.ts).
import { createMcpHandler, isLegacyRequest, PROTOCOL_VERSION_META_KEY, type McpHttpHandler } from "@modelcontextprotocol/server";
import type { Logger } from "../../log.ts";
import { createMcpServer, type McpServerDeps } from "../server.ts";

/** The first protocol revision of the modern era; later revisions compare greater (ISO dates). */
const FIRST_MODERN_REVISION = "2026-07-28";

export function createModernHandler(deps: McpServerDeps, log: Logger): McpHttpHandler {
  return createMcpHandler((ctx) => createMcpServer(deps, calledTool(ctx.requestInfo)), {
    legacy: "reject",
    onerror: (err) => {
      // Refused requests (bad headers, unsupported revision) are the client's business and are
      // answered; only the server's own failures are worth a log line.
      if (!err.message.startsWith("Rejected inbound request")) log.error("mcp request failed", { error: err.message });
    },
  });
}

/**
 * The tool a tools/call request names in its Mcp-Name header: the SDK's handler has refused the
 * request before building a server when that header disagrees with the body (400, -32020).
 */
function calledTool(request: Request | undefined): string | undefined {
  if (request?.headers.get("mcp-method") !== "tools/call") return undefined;
  return request.headers.get("mcp-name") ?? undefined;
}

/**
 * Whether a POST without Mcp-Session-Id belongs to the modern era: the SDK's own classification
 * (body first: the `_meta` envelope; header/body mismatches count as modern, whose handler answers
 * them). Everything else is 2025-era: an initialize opens a session, anything else needs one.
 * The usual modern request (one message, not initialize, with the envelope's protocol-version key)
 * is recognised without the SDK's classifier, which validates the body with zod (~10% of such a
 * request's CPU) and which the handler runs again anyway: for exactly these bodies the classifier
 * never answers "legacy" (hasEnvelopeClaim in its classifyRequestBody / classifyNotificationBody).
 */
export async function isModernPost(request: Request, body: unknown): Promise<boolean> {
  if (claimsEnvelope(body)) return true;
  return !(await isLegacyRequest(request, body));
}

function claimsEnvelope(body: unknown): boolean {
  if (!isObject(body) || Array.isArray(body) || typeof body.method !== "string" || body.method === "initialize") return false;
  const meta = isObject(body.params) ? body.params._meta : undefined;
  return isObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** A GET or DELETE from a client that speaks a modern revision (its MCP-Protocol-Version header says so). */
export function isModernClient(request: Request): boolean {
  const version = request.headers.get("mcp-protocol-version")?.trim();
  return !!version && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= FIRST_MODERN_REVISION;
}
