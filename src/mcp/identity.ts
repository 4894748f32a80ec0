// Who this server says it is (MCP Implementation: initialize's serverInfo, server/discover), which
// hosts and directories show: a title, a description, a website (the front door, GET /) and icons
// from our own origin (./icons/icons.ts).
import type { Implementation } from "@modelcontextprotocol/server";
import { iconsFor } from "./icons/icons.ts";

export const SERVER_TITLE = "Mailbox";
export const SERVER_DESCRIPTION = "Read, search, draft and send email in your own mailbox over IMAP and SMTP, " +
  "with the access you chose when you connected it.";

export function serverIdentity(baseUrl: string, version: string): Implementation {
  return {
    name: "mailbox-mcp", title: SERVER_TITLE, version, description: SERVER_DESCRIPTION, websiteUrl: `${baseUrl}/`, icons: iconsFor(baseUrl, "mailbox"),
  };
}

