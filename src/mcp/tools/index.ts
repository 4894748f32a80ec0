// THE TOOL REGISTRY, and the tool contract (read this before writing a tool).
//
// A NEW TOOL IS ONE FILE PLUS ONE LINE IN `TOOLS` BELOW:
//   src/mcp/tools/read/<tool-name>.ts   for a tool that only reads (kind: "read"), or
//   src/mcp/tools/write/<tool-name>.ts  for one that changes the mailbox or sends (kind: "write").
// Nothing else names the tool: the server registers every entry, the /mcp scope check and the
// write pipeline follow `kind`, tools/list shows what the file declares. Then run
// `UPDATE_TOOLS_SNAPSHOT=1 bun run test test/mcp/tools-list.test.ts` and commit the changed
// test/mcp/tools-list.snapshot.json: it is what clients see, reviewed as a diff.
//
//   import { defineTool } from "../define.ts";  import { ok } from "../result.ts";
//   export const markAsRead = defineTool({
//     name: "mark_as_read",
//     kind: "write",
//     config: { title, description, inputSchema: { ...zod fields }, outputSchema: { ...zod fields },
//               annotations: { readOnlyHint: false, destructiveHint, idempotentHint, openWorldHint } },
//     activity: { fromArgs: (args) => ({ folder: args.folder, uids: args.uids }), fromResult: (structured) => ({}) },
//     handler: async (args, ctx) => ok(structured, "readable text"),
//   });
//
// - kind "read": annotations READ_ONLY (../annotations.ts; openWorldHint false if it does not reach
//   the mail server), no activity. kind "write": every hint stated (docs/design.md §6 says why each
//   tool has its values), and `activity`, what the owner's log keeps of a call (docs/owner.md §4):
//   folders, uids, recipients, Message-IDs; never a subject, a body or an attachment. fromArgs is
//   kept for every call that ran, fromResult adds what a success returned.
// - A write tool's handler holds only its own work. src/mcp/server.ts runs it inside the write
//   pipeline (./pipeline/write.ts): email:write scope check, the activity row on success and on
//   failure, the mail layer's InputError turned into a ToolInputError.
// - The registry (./registry.ts) refuses to start with a write tool without activity, a kind and a
//   readOnlyHint that disagree, or a name listed twice; the types of ./define.ts refuse them first.
// - title is written once: clients get it as the tool's title and as annotations.title.
// - audience "app": a tool for an MCP App (a button on the review card), never for the model: listed
//   and callable only for clients that render apps, with `_meta.ui.visibility: ["app"]` in config._meta.
// - A tool that sends mail calls ctx.sending.send(request) (src/sending/gate.ts), never SMTP itself.
// - inputSchema / outputSchema are zod (v4) raw shapes. The SDK validates arguments before the
//   handler runs and names the bad field ("... at limit"); give every field a .describe() for the
//   model. Fields several tools share are in ./schemas/.
// - The handler returns a CallToolResult built with the helpers in ./result.ts: `ok(structured, text)`.
//   structuredContent must satisfy outputSchema (the SDK checks it; clients do too).
// - Failures: throw. server.ts turns every throw into an `isError: true` result (never a 500):
//     MailError(kind, message)   (src/mail/errors.ts) mail-server trouble or missing folder/uid;
//                                the message says what happened and what to do;
//     ToolInputError(message)    (./result.ts) an argument problem zod cannot express; name the argument;
//     anything else              logged, and the caller sees a generic "internal error".
//   Errors thrown by ctx.withImap are already MailErrors (auth, timeout, dropped connection...).
// - ctx (ToolContext, ./context.ts) is built per call from the request's Bearer token.
//
// IMAP: ctx.withImap(fn) runs fn with the token's pooled, logged-in ImapFlow client. Several
// sessions share that client, so always take a mailbox lock around work in a folder:
//   withMailbox(client, path, fn, { readOnly })  in src/mail/imap/mailbox.ts (getMailboxLock + release in finally).
// Do not call client.logout()/close(); the pool owns the connection. Do not keep the client after fn returns.
// SMTP: outgoingDeps(ctx) (./context.ts) gives src/mail/write/ what it needs; ctx.account() the
// decrypted MailAccount. Never log it or put it in a result.
//
// Import from ./define.ts, ./context.ts and the like, never from this file: that would be an import cycle.
import { getAttachment } from "./read/get-attachment.ts";
import { getChangesTool } from "./read/get-changes.ts";
import { getEmailTool } from "./read/get-email.ts";
import { getRecentEmails } from "./read/get-recent-emails.ts";
import { getThreadTool } from "./read/get-thread.ts";
import { findContactsTool } from "./read/find-contacts.ts";
import { listMailboxes } from "./read/list-mailboxes.ts";
import { listProvidersTool, type OfferedSignIn } from "./read/list-providers.ts";
import { searchEmailsTool } from "./read/search-emails.ts";
import { archiveEmail } from "./write/archive-email.ts";
import { confirmSend } from "./write/confirm-send.ts";
import { createFolder } from "./write/create-folder.ts";
import { deleteFolder } from "./write/delete-folder.ts";
import { draftEmail } from "./write/draft-email.ts";
import { flagEmail } from "./write/flag-email.ts";
import { labelEmail } from "./write/label-email.ts";
import { markAsRead } from "./write/mark-as-read.ts";
import { moveEmail } from "./write/move-email.ts";
import { renameFolder } from "./write/rename-folder.ts";
import { sendDraft } from "./write/send-draft.ts";
import { sendEmail } from "./write/send-email.ts";
import { trashEmail } from "./write/trash-email.ts";
import { updateDraft } from "./write/update-draft.ts";
import { respondToInvitation } from "./write/respond-to-invitation.ts";
import { unsubscribeTool, type WebPolicy } from "./write/unsubscribe.ts";
import { toolRegistry } from "./registry.ts";
import { listAccounts } from "./read/list-accounts.ts";
import { withAccount } from "../accounts/with-account.ts";
import { acrossEmails, acrossMailboxes } from "../accounts/across.ts";
import { acrossSearch } from "../accounts/search-span.ts";
import { NO_IDENTITIES, type IdentityLookup } from "./write/sender.ts";
import { systemClock, type Clock } from "../../clock.ts";
import { ContactsCache } from "../../mail/read/contacts/cache.ts";

export type { ToolContext } from "./context.ts";
export type { ToolDef } from "./define.ts";
export type { AnyTool } from "./registry.ts";
import type { AnyTool } from "./registry.ts";

/**
 * Every tool the server offers, in tools/list order, checked when built. One line per tool.
 * What only some tools need is handed to those tools here, never to every call: `signIns`, the
 * provider sign-ins list_providers lists; `cursorKey`, the key search_emails and get_changes seal
 * their cursors with.
 */
export interface ToolFactoryDeps {
  signIns: readonly OfferedSignIn[];
  cursorKey: Uint8Array;
  /** The grant's mailbox's identities and signature (./write/sender.ts): the composing tools write as them, get_email and get_thread find its invitations' attendee among them; default none. */
  identities?: IdentityLookup;
  /** find_contacts' per-token memory (the MCP runtime's: src/mcp/runtime.ts), and the clock it ranks by; default a cache of its own. */
  contacts?: ContactsCache;
  clock?: Clock;
  /** What unsubscribe's one-click request may reach. */
  web: WebPolicy;
}

// Every mailbox tool takes `account` (../accounts/with-account.ts); the three listing reads span
// every mailbox of a connection without it (../accounts/across.ts).
export const mcpTools = ({
  signIns, cursorKey, identities = NO_IDENTITIES, clock = systemClock, contacts = new ContactsCache(clock), web,
}: ToolFactoryDeps): readonly AnyTool[] => toolRegistry([
  listProvidersTool(signIns),
  listAccounts,
  withAccount(listMailboxes, acrossMailboxes),
  withAccount(getRecentEmails, acrossEmails(cursorKey)),
  withAccount(searchEmailsTool(cursorKey), acrossSearch(cursorKey)),
  ...[getEmailTool(identities), getThreadTool(identities), getAttachment, getChangesTool(cursorKey), findContactsTool({ contacts, identities, clock }),
    draftEmail(identities), sendEmail(identities), updateDraft(identities), sendDraft, respondToInvitation(identities), unsubscribeTool(web, identities),
    markAsRead, flagEmail, labelEmail, moveEmail, trashEmail, archiveEmail, createFolder, renameFolder, deleteFolder]
    .map((t) => withAccount<AnyTool>(t)),
  confirmSend,
]);

/** The tools as every server has them (names, kinds, schemas), for what does not call them; list_providers lists no sign-in here. */
export const TOOLS = mcpTools({ signIns: [], cursorKey: new Uint8Array(32), web: { allowPrivateHosts: false, version: "" } });

/** What a client that does not render MCP Apps is offered: every tool but the app-only ones (audience "app"). */
export const LISTED_TOOLS: readonly AnyTool[] = TOOLS.filter((t) => t.audience !== "app");
