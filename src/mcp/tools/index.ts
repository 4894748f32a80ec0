// THE TOOL CONTRACT (read this before writing a tool).
//
// A tool is one file in src/mcp/tools/ exporting a `defineTool({...})` value (import from
// ./define.ts, never from this file: that would be an import cycle), listed once in TOOLS at the
// bottom of this file. src/mcp/server.ts registers every entry on each session's McpServer.
//
//   import { defineTool, WRITE } from "./define.ts";  import { ok } from "./result.ts";
//   export const markAsRead = defineTool({
//     name: "mark_as_read",
//     config: { title, description, inputSchema: { ...zod fields }, outputSchema: { ...zod fields }, annotations: WRITE },
//     handler: async (args, ctx) => ok(structured, "readable text"),
//   });
//
// - inputSchema / outputSchema are zod (v4) raw shapes. The SDK validates arguments before the
//   handler runs and names the bad field ("... at limit"); give every field a .describe() for the model.
// - The handler returns a CallToolResult built with the helpers in ./result.ts: `ok(structured, text)`.
//   structuredContent must satisfy outputSchema (the SDK checks it; clients do too).
// - Failures: throw. server.ts turns every throw into an `isError: true` result (never a 500):
//     MailError(kind, message)   (src/mail/errors.ts) mail-server trouble or missing folder/uid;
//                                the message says what happened and what to do;
//     ToolInputError(message)    (./result.ts) an argument problem zod cannot express; name the argument;
//     anything else              logged, and the caller sees a generic "internal error".
//   Errors thrown by ctx.withImap are already MailErrors (auth, timeout, dropped connection...).
// - ctx (ToolContext below) is built per call from the session's Bearer token.
//
// IMAP: ctx.withImap(fn) runs fn with the token's pooled, logged-in ImapFlow client. Several
// sessions share that client, so always take a mailbox lock around work in a folder:
//   withMailbox(client, path, fn, { readOnly })  in src/mail/imap/mailbox.ts (getMailboxLock + release in finally).
// Do not call client.logout()/close(); the pool owns the connection. Do not keep the client after fn returns.
// SMTP: ctx.account() gives the decrypted MailAccount (smtp host/port/security, username, password);
// never log it or put it in a result.
import { getEmail } from "./get-email.ts";
import { getAttachment } from "./get-attachment.ts";
import { getRecentEmails } from "./get-recent-emails.ts";
import { listMailboxes } from "./list-mailboxes.ts";
import { listProviders } from "./list-providers.ts";
import { searchEmails } from "./search-emails.ts";
import { draftEmail } from "./draft-email.ts";
import { sendEmail } from "./send-email.ts";
import { markAsRead } from "./mark-as-read.ts";
import { moveEmail } from "./move-email.ts";
import type { ToolDef } from "./define.ts";

export { defineTool, READ_ONLY, type ToolContext, type ToolDef, type ToolConfig } from "./define.ts";

/** Every tool the server offers, in tools/list order. Add one line per tool. */
export const TOOLS: ToolDef<any, any>[] = [
  listProviders,
  listMailboxes,
  getRecentEmails,
  searchEmails,
  getEmail,
  getAttachment,
  draftEmail,
  sendEmail,
  markAsRead,
  moveEmail,
];
