// Who this server says it is (MCP Implementation: initialize's serverInfo, server/discover), which
// hosts and directories show: a title, a description, a website (the front door, GET /) and icons
// from our own origin (./icons/icons.ts).
import type { Implementation, ServerCapabilities } from "@modelcontextprotocol/server";
import { iconsFor } from "./icons/icons.ts";

export const SERVER_TITLE = "Mailbox";
export const SERVER_DESCRIPTION = "Read, search, draft and send email in your own mailbox over IMAP and SMTP, " +
  "with the access you chose when you connected it.";

export function serverIdentity(baseUrl: string, version: string): Implementation {
  return {
    name: "mailbox-mcp", title: SERVER_TITLE, version, description: SERVER_DESCRIPTION, websiteUrl: `${baseUrl}/`, icons: iconsFor(baseUrl, "mailbox"),
  };
}

/**
 * The prompts and the resource template are fixed per build, so no list_changed is ever sent (the
 * SDK's default says true). Completions are declared by ./completions.ts.
 */
export const LISTS_FIXED = {
  prompts: { listChanged: false },
  resources: { listChanged: false },
} as const satisfies ServerCapabilities;
