// send_email: compose and send over SMTP (src/mail/write/deliver.ts), filing a copy in \Sent unless
// the provider does that itself.
import { z } from "zod";
import { attachmentBytes } from "../../../mail/compose/message.ts";
import type { Delivered } from "../../../mail/write/deliver.ts";
import { sendEmail as send } from "../../../mail/write/send.ts";
import { outgoingDeps } from "../context.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { messageActivity, messageFields } from "../schemas/message-fields.ts";
import { composedText, originNote } from "./composed-text.ts";

export const sendEmail = defineTool({
  name: "send_email",
  kind: "write",
  config: {
    title: "Send an email",
    description:
      "Sends an email from the connected account over SMTP, right away; it cannot be recalled. " +
      "Only send when the person has clearly asked for it; otherwise use draft_email. " +
      "Reply: reply_to_uid (and reply_folder when not INBOX), reply_all to answer everyone; it is threaded, the original is quoted below (quote: false leaves it out) and flagged as answered. " +
      "Forward: forward_uid (and forward_folder), inline with the original's attachments attached by the server, or forward_as attachment. " +
      "Attach parts already in the mailbox with attach (fetched by the server); files from elsewhere with attachments as base64; 20 MB in all " +
      "(and 20 MB across messages being sent at once on this connection: send large files one message at a time). markdown instead of text/html gives both parts. " +
      "A copy is filed in the Sent folder (saved_to), unless the provider files sent mail itself (saved_to null). " +
      "rejected lists recipients the server refused while others were accepted. Do not retry after a success: the message would go out twice.",
    inputSchema: messageFields,
    outputSchema: {
      message_id: z.string().describe("Message-ID header of the sent message, with angle brackets."),
      accepted: z.array(z.string()).describe("Recipient addresses the SMTP server accepted."),
      rejected: z.array(z.string()).describe("Recipient addresses the SMTP server refused."),
      saved_to: z.string().nullable().describe("Path of the Sent folder holding our copy; null when the provider files sent mail itself (or filing failed; see the text)."),
    },
    // Reaches third parties (open world); creates rather than destroys; a repeat sends a second copy.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  activity: {
    fromArgs: messageActivity,
    // saved_to is null when the provider files sent mail itself; rejected only when some were.
    fromResult: (sent) => ({ folder: sent.saved_to, message_id: sent.message_id, ...(sent.rejected.length ? { rejected: sent.rejected } : {}) }),
  },
  handler: async (args, ctx) => {
    // The 20 MB counts across this token's sends in flight, reserved before anything is decoded.
    const release = ctx.reserveAttachments(attachmentBytes(args.attachments));
    try {
      const { warnings, assembled, ...res } = await send(await outgoingDeps(ctx), args);
      const head = [`Sent. Message-ID: ${res.message_id}. ${originNote(assembled, args.reply_to_uid !== undefined)}`.trim(), composedText(assembled)];
      return ok(res, [...head, ...deliveryLines(res, warnings, assembled.original !== null)].join("\n"));
    } finally {
      release();
    }
  },
});

/**
 * Who got it, who did not, where the copy is, and what went wrong after sending. `fenced`: the
 * addresses came in part from an original's sender and are shown in the fence above, so here only
 * their numbers (structuredContent has them).
 */
export function deliveryLines(res: Omit<Delivered, "warnings">, warnings: string[], fenced: boolean): string[] {
  const n = (list: string[]) => `${list.length} recipient${list.length === 1 ? "" : "s"}`;
  const lines = [fenced ? `Accepted by the server for ${n(res.accepted)}.` : `Accepted by the server for: ${res.accepted.join(", ") || "(nobody)"}.`];
  if (res.rejected.length) {
    lines.push(fenced ? `The server refused ${n(res.rejected)} (listed in rejected), who will not get it.` : `The server refused these recipients, who will not get it: ${res.rejected.join(", ")}.`);
  }
  lines.push(res.saved_to ? `A copy is in ${res.saved_to}.` : warnings.length ? "" : "The provider files sent mail in its Sent folder itself.");
  lines.push(...warnings);
  return lines.filter(Boolean);
}
