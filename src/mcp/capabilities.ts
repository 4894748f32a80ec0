// What this server declares it can do (MCP "Capabilities"), in one place: the 2025-era initialize
// result and the 2026-07-28 server/discover result both come from it (src/mcp/server.ts). Each
// flag says what is true, because clients act on it:
// - tools.listChanged: false. Our tool list is fixed per build, so no notifications/tools/list_changed
//   is ever sent. The SDK's default (true) made a 2026-07-28 `subscriptions/listen` for tool changes
//   hold an SSE stream open indefinitely, for nothing (issue 19, item 13; up to the SDK's 1,024 per
//   process). With false the SDK honours nothing in such a listen: it acknowledges an empty filter
//   and ends the stream at once (docs/decisions.md "Protocol eras on one /mcp").
// - resources.listChanged: false. The one resource (the review card of the send gate,
//   src/mcp/send-gate/confirm/review-card.ts) is fixed per build too.
// Prompts, when they come, declare their own flags here, on the same rule.
import type { ServerCapabilities } from "@modelcontextprotocol/server";

export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
} as const satisfies ServerCapabilities;
