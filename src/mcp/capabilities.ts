// What this server declares it can do (MCP "Capabilities"), in one place: the 2025-era initialize
// result and the 2026-07-28 server/discover result both come from it (src/mcp/server.ts). Each
// flag says what is true, because clients act on it:
// - tools.listChanged: false. Our tool list is fixed per build, so no notifications/tools/list_changed
//   is ever sent. The SDK's default (true) made a 2026-07-28 `subscriptions/listen` for tool changes
//   hold an SSE stream open indefinitely, for nothing (up to the SDK's 1,024 per process). With
//   false the SDK honours nothing in such a listen: it acknowledges an empty filter and ends the
//   stream at once (docs/decisions.md "Protocol eras on one /mcp").
// - prompts.listChanged, resources.listChanged: false, on the same rule: the prompts and the message
//   template are fixed per build (src/mcp/prompts/, src/mcp/resources/), as is the send gate's review card
//   (src/mcp/confirm/review-card.ts); resources have no subscribe.
// - completions: prompt arguments and the message template's variables complete (src/mcp/completions.ts).
import type { ServerCapabilities } from "@modelcontextprotocol/server";

export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  prompts: { listChanged: false },
  resources: { listChanged: false },
  completions: {},
} as const satisfies ServerCapabilities;

/**
 * A copy of SERVER_CAPABILITIES for one server to own (the SDK merges into the object it is given).
 * A 2026-07-28 request builds a server each time, and structuredClone cost ~4% of its CPU.
 */
export function ownCapabilities(): ServerCapabilities {
  const copy: Record<string, object> = {};
  for (const [key, value] of Object.entries(SERVER_CAPABILITIES)) copy[key] = { ...value };
  return copy as ServerCapabilities;
}
