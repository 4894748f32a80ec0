// draft_email: compose a message and save it to the \Drafts folder without sending it.
// Also home of what the four write tools share: the email:write scope check, the mapping of
// mail-layer argument errors, and the message fields send_email reuses.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { InputError } from "../../mail/errors.ts";
import { type OutgoingDeps } from "../../mail/write/outgoing.ts";
import { saveDraft } from "../../mail/write/save-draft.ts";
import { activityOf } from "./activity.ts";
import { defineTool, WRITE, type ToolContext } from "./define.ts";
import { ok, toolError, ToolInputError } from "./result.ts";

export const WRITE_SCOPE = "email:write";

/**
 * Runs a write tool's body only for tokens holding email:write. The MCP authorization spec's answer
 * to a missing scope is HTTP 403 + `WWW-Authenticate: Bearer error="insufficient_scope"` on the
 * request; a tool runs inside an already-accepted response, so it reports the same error code as a
 * tool error instead. Argument errors from the mail layer become ToolInputErrors naming the argument.
 * Every call that runs is filed in the owner's activity log, success or failure, before it answers
 * (docs/owner.md §4); a call refused for its scope ran nothing and is not.
 */
export async function asWriter(ctx: ToolContext, tool: string, args: object, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  if (!ctx.scopes.includes(WRITE_SCOPE)) {
    return toolError(`insufficient_scope: ${tool} needs the "${WRITE_SCOPE}" scope, which this access token was not granted. Reconnect the mailbox and grant "${WRITE_SCOPE}".`);
  }
  let result: CallToolResult;
  try {
    result = await body();
  } catch (err) {
    await ctx.recordActivity(activityOf(tool, args, { error: err }));
    if (err instanceof InputError) throw new ToolInputError(err.message);
    throw err;
  }
  await ctx.recordActivity(activityOf(tool, args, { result }));
  return result;
}

export async function outgoingDeps(ctx: ToolContext): Promise<OutgoingDeps> {
  const account = await ctx.account();
  return { account, withImap: ctx.withImap, submit: (message) => ctx.submit(account, message) };
}

const recipients = (what: string) =>
  z.union([z.string(), z.array(z.string()).max(100)])
    .describe(`${what}: an array of addresses (a single string is accepted too). Each is "name@example.com" or "Full Name <name@example.com>".`);

/** Message fields shared by draft_email and send_email (docs/design.md §6). */
export const messageFields = {
  to: recipients("Recipients (at least one)"),
  cc: recipients("Cc recipients").optional(),
  bcc: recipients("Bcc recipients, hidden from the others").optional(),
  subject: z.string().max(1000).optional()
    .describe('Subject line. Required unless reply_to_uid is given; then it defaults to "Re: <original subject>". A given subject is used as is.'),
  text: z.string().optional().describe("Plain-text body."),
  html: z.string().optional().describe("HTML body. Give text as well so that text-only mail readers see something."),
  reply_to_uid: z.number().int().positive().max(4_294_967_295).optional()
    .describe("UID of the message being answered (from get_recent_emails / search_emails): the reply is threaded under it with In-Reply-To and References."),
  reply_folder: z.string().min(1).max(1000).optional()
    .describe('Folder of the message in reply_to_uid. Default INBOX.'),
};

export const draftEmail = defineTool({
  name: "draft_email",
  config: {
    title: "Save a draft",
    description:
      "Composes an email and saves it in the Drafts folder without sending it, so the person can review and send it from their mail app. " +
      "Use this instead of send_email whenever the person has not clearly asked for the message to be sent. " +
      "For a reply, pass reply_to_uid (and reply_folder when not INBOX): the draft is threaded and the subject defaults to \"Re: ...\". " +
      "Returns the Drafts folder path, the draft's uid there and its Message-ID.",
    inputSchema: messageFields,
    outputSchema: {
      folder: z.string().describe("Path of the Drafts folder."),
      uid: z.number().int().nullable().describe("UID of the draft in that folder (null only if the server could not say)."),
      message_id: z.string().describe("Message-ID header of the draft, with angle brackets."),
    },
    // Only adds a message to the person's own mailbox; each call adds another draft.
    annotations: { ...WRITE, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  handler: (args, ctx) =>
    asWriter(ctx, "draft_email", args, async () => {
      const { subject, ...res } = await saveDraft(await outgoingDeps(ctx), args);
      const where = `${res.folder}${res.uid === null ? "" : ` (uid ${res.uid})`}`;
      return ok(res, `Draft "${subject}" to ${[args.to].flat().join(", ")} saved in ${where}. Message-ID: ${res.message_id}. It has not been sent.`);
    }),
});
