// Which scope a /mcp message needs. The write tools (kind "write", ./tools/index.ts) need
// email:write; when the token lacks it the route answers HTTP 403 with `error="insufficient_scope"`
// (MCP authorization, scope challenge; RFC 6750 §3.1) before the message reaches a tool, so a
// client can ask for the wider grant.
import { WRITE_SCOPE } from "../scopes.ts";

// The tool registry is read on the first check of a token without email:write (a synchronous
// require): an idle server does not load every tool's module (docs/performance.md, ./transport/lazy-endpoint.ts).
let writeTools: Set<string> | undefined;
function writeToolNames(): Set<string> {
  const { TOOLS } = require("./tools/index.ts") as typeof import("./tools/index.ts");
  return (writeTools ??= new Set(TOOLS.filter((t) => t.kind === "write").map((t) => t.name)));
}

function callsWriteTool(message: unknown): boolean {
  if (!message || typeof message !== "object") return false;
  const m = message as { method?: unknown; params?: { name?: unknown } };
  return m.method === "tools/call" && typeof m.params?.name === "string" && writeToolNames().has(m.params.name);
}

/** The scope `body` (one JSON-RPC message or a batch) needs that `scopes` lacks, or null. */
export function missingScope(body: unknown, scopes: string[]): string | null {
  if (scopes.includes(WRITE_SCOPE)) return null;
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(callsWriteTool) ? WRITE_SCOPE : null;
}
