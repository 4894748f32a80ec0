// send_email: compose a message and hand it to the send gate (src/mcp/send-gate/gate.ts), which
// sends it, asks the person first, or holds it as a draft, as the grant's send policy says.
import { z } from "zod";
import { attachmentBytes } from "../../../mail/compose/message.ts";
import { composeSend } from "../../../mail/write/send.ts";
import type { OutgoingArgs } from "../../../mail/write/outgoing.ts";
import { SENDING_TOOL_META } from "../../send-gate/confirm/review-card.ts";
import type { SendResult } from "../../send-gate/request.ts";
import { outgoingDeps } from "../context.ts";
import { defineTool } from "../define.ts";
import { messageActivity, messageFields } from "../schemas/message-fields.ts";
import { sendActivity, sendResultShape } from "../schemas/send-result.ts";

const attachment = z.object({
  filename: z.string().min(1).max(255).describe('File name shown to the recipient, e.g. "report.pdf" (no path).'),
  content_base64: z.string().describe("The file's bytes, standard base64 (RFC 4648, with = padding)."),
  content_type: z.string().max(255).optional().describe('MIME type such as "application/pdf"; guessed from the file name when omitted.'),
});

/** What makes two calls the same message (at-most-once): the arguments as given, bar dry_run. */
function identity(args: OutgoingArgs): unknown {
  const { to, cc, bcc, subject, text, html, reply_to_uid, reply_folder, attachments } = args;
  return { to, cc, bcc, subject, text, html, reply_to_uid, reply_folder: reply_to_uid === undefined ? undefined : reply_folder ?? "INBOX", attachments };
}

export const sendEmail = defineTool({
  name: "send_email",
  kind: "write",
  config: {
    title: "Send an email",
    description:
      "Sends an email from the connected account over SMTP. Only send when the person has clearly asked for it; otherwise use draft_email. " +
      "Depending on what the person chose when connecting, the message goes out at once, or they are asked first (inside this app), " +
      "or it is saved as a draft for them: status says which (sent, held_as_draft) and reason says what to tell them. Never try to get around a held message. " +
      "dry_run: true returns exactly what would be sent and whether the person would be asked, without sending anything. " +
      "For a reply, pass reply_to_uid (and reply_folder when not INBOX) so it is threaded, and the original is flagged as answered. " +
      "Attachments: up to 20 MB in all, as base64 (20 MB across sends running at once on this connection: send large files one message at a time). A copy is filed in the Sent folder (saved_to), unless the provider files sent mail itself (saved_to null). " +
      "rejected lists recipients the server refused while others were accepted. The same message asked again within 10 minutes is not sent twice: the repeat gets the first outcome.",
    inputSchema: {
      ...messageFields,
      attachments: z.array(attachment).max(100).optional().describe("Files to attach (20 MB in all, decoded)."),
      dry_run: z.boolean().default(false).describe("true: only say what would be sent (recipients, subject, sizes, the send policy's decision); nothing is sent, saved or asked."),
    },
    outputSchema: sendResultShape,
    // Reaches third parties (open world); creates rather than destroys; a repeat within 10 minutes
    // is answered with the first outcome, but a later one sends again: not idempotent.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    _meta: SENDING_TOOL_META,
  },
  activity: {
    fromArgs: messageActivity,
    fromResult: (r) => sendActivity(r as SendResult),
  },
  handler: async (args, ctx) => {
    // The 20 MB counts across this token's sends in flight, reserved before anything is decoded.
    const release = ctx.reserveAttachments(attachmentBytes(args.attachments));
    try {
      const deps = await outgoingDeps(ctx);
      return await ctx.sending.send({ tool: "send_email", identity: identity(args), dryRun: args.dry_run, compose: () => composeSend(deps, args) });
    } finally {
      release();
    }
  },
});
