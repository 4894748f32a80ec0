// send_email: send over SMTP and file a copy in \Sent (unless the provider does that itself).
import { z } from "zod";
import { attachmentBytes } from "../../../mail/compose/message.ts";
import { sendEmail as send, type SendOutcome } from "../../../mail/write/send.ts";
import { outgoingDeps } from "../context.ts";
import { defineTool } from "../define.ts";
import { ok } from "../result.ts";
import { messageActivity, messageFields } from "../schemas/message-fields.ts";

const attachment = z.object({
  filename: z.string().min(1).max(255).describe('File name shown to the recipient, e.g. "report.pdf" (no path).'),
  content_base64: z.string().describe("The file's bytes, standard base64 (RFC 4648, with = padding)."),
  content_type: z.string().max(255).optional().describe('MIME type such as "application/pdf"; guessed from the file name when omitted.'),
});

export const sendEmail = defineTool({
  name: "send_email",
  kind: "write",
  config: {
    title: "Send an email",
    description:
      "Sends an email from the connected account over SMTP, right away; it cannot be recalled. " +
      "Only send when the person has clearly asked for it; otherwise use draft_email. " +
      "For a reply, pass reply_to_uid (and reply_folder when not INBOX) so it is threaded, and the original is flagged as answered. " +
      "Attachments: up to 20 MB in all, as base64 (20 MB across sends running at once on this connection: send large files one message at a time). A copy is filed in the Sent folder (saved_to), unless the provider files sent mail itself (saved_to null). " +
      "rejected lists recipients the server refused while others were accepted. Do not retry after a success: the message would go out twice.",
    inputSchema: {
      ...messageFields,
      attachments: z.array(attachment).max(100).optional().describe("Files to attach (20 MB in all, decoded)."),
    },
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
      const { warnings, subject, ...res } = await send(await outgoingDeps(ctx), args);
      return ok(res, describe(subject, res, warnings));
    } finally {
      release();
    }
  },
});

function describe(subject: string, res: Omit<SendOutcome, "warnings" | "subject">, warnings: string[]): string {
  const lines = [`Sent "${subject}" to ${res.accepted.join(", ")}. Message-ID: ${res.message_id}.`];
  if (res.rejected.length) lines.push(`The server refused these recipients, who will not get it: ${res.rejected.join(", ")}.`);
  lines.push(res.saved_to ? `A copy is in ${res.saved_to}.` : warnings.length ? "" : "The provider files sent mail in its Sent folder itself.");
  lines.push(...warnings);
  return lines.filter(Boolean).join("\n");
}
