// The review card as the MCP Apps extension (io.modelcontextprotocol/ui) wants it served: a
// `ui://` resource of type text/html;profile=mcp-app (the HTML is src/views/review-card.ts), named
// in the sending tools' `_meta.ui.resourceUri` so a host that renders apps shows it with each
// call's result, and an app-only tool (`visibility: ["app"]`) the card's buttons call. Registered
// by hand on the SDK v2 server (the extension's own server helpers add nothing we need here).
import type { McpServer } from "@modelcontextprotocol/server";
import { REVIEW_CARD_HTML } from "../../views/review-card.ts";
import { APP_MIME_TYPE, declaresUi } from "./channel.ts";

export const REVIEW_CARD_URI = "ui://mailbox-mcp/review-send.html";

/** `_meta` of a sending tool: the card renders beside its result. The flat key is the extension's older spelling. */
export const SENDING_TOOL_META = { ui: { resourceUri: REVIEW_CARD_URI }, "ui/resourceUri": REVIEW_CARD_URI };

/** `_meta` of the app-only tool: hosts call it for the card and keep it from the model. */
export const APP_ONLY_TOOL_META = { ui: { resourceUri: REVIEW_CARD_URI, visibility: ["app"] }, "ui/resourceUri": REVIEW_CARD_URI };

/** Whether the client this server answers renders MCP Apps (a 2025 session's initialize, or this 2026-07-28 request's envelope). */
export function servesApps(server: McpServer): boolean {
  return declaresUi(server.server.getClientCapabilities());
}

/** Listed and readable only while the client renders MCP Apps: nobody else has a use for it. */
export function registerReviewCard(server: McpServer): void {
  const registered = server.registerResource("review-send", REVIEW_CARD_URI, {
    title: "Review an email before it is sent",
    description: "The card a host shows for a message held for the person's review, with Send and Keep-as-draft buttons.",
    mimeType: APP_MIME_TYPE,
    // No network, no frames, nothing outside the document itself.
    _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
  }, async () => ({
    contents: [{ uri: REVIEW_CARD_URI, mimeType: APP_MIME_TYPE, text: REVIEW_CARD_HTML, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } }],
  }));
  // The SDK reads `enabled` at every resources/list and resources/read (as for the app-only tool).
  Object.defineProperty(registered, "enabled", { get: () => servesApps(server), set: () => {} });
}
