// send_email: compose a message (reply, forward, attachments by reference: src/mail/write/assemble.ts)
// and hand it to the send gate (src/sending/gate.ts), which sends it, asks the person first or
// holds it as a draft, as the grant's send policy says.
import { z } from "zod";
import { attachmentBytes } from "../../../mail/compose/message.ts";
import { assemble, type Assembled } from "../../../mail/write/assemble.ts";
import { prepare, type OutgoingArgs } from "../../../mail/write/outgoing.ts";
import { SENDING_TOOL_META } from "../../confirm/review-card.ts";
import type { OutgoingMail, SendResult } from "../../../sending/request.ts";
import { outgoingDeps } from "../context.ts";
import { defineTool } from "../define.ts";
import { messageActivity, messageFields } from "../schemas/message-fields.ts";
import { sendActivity, sendResultShape } from "../schemas/send-result.ts";
import { composedText, originNote } from "./composed-text.ts";
import { senderFor, type IdentityLookup } from "./sender.ts";

/** What makes two calls the same message (at-most-once): every composing argument as given, dry_run aside. */
function identity({ dry_run: _dry, ...composing }: OutgoingArgs & { dry_run: boolean }): unknown {
  return composing;
}

/** The assembled message as the gate takes it. */
export function outgoingMail(a: Assembled, reply: boolean): OutgoingMail {
  const c = a.composed;
  const after = a.original ? { [reply ? "answered" : "forwarded"]: { folder: a.original.folder, uid: a.original.uid } } : {};
  return {
    messageId: c.messageId, stored: c.stored, wire: c.wire, envelope: c.envelope, subject: c.subject, recipients: c.recipients,
    attachments: a.review.attachments, preview: a.review.text, after,
    describe: [originNote(a, reply), composedText(a)].filter(Boolean).join("\n"),
  };
}

export const sendEmail = (identities: IdentityLookup) => defineTool({
  name: "send_email",
  kind: "write",
  config: {
    title: "Send an email",
    description:
      "Sends an email from the connected account over SMTP. Only send when the person has clearly asked for it; otherwise use draft_email. " +
      "Depending on what the person chose when connecting, the message goes out at once, or they are asked first (inside this app), " +
      "or it is saved as a draft for them: status says which (sent, held_as_draft) and reason says what to tell them. Never try to get around a held message. " +
      "dry_run: true returns exactly what would be sent (recipients after reply_all, subject, sizes) and whether the person would be asked, without sending anything. " +
      "Reply: reply_to_uid (and reply_folder when not INBOX), reply_all to answer everyone; it is threaded, the original is quoted below (quote: false leaves it out) and flagged as answered. " +
      "Forward: forward_uid (and forward_folder), inline with the original's attachments attached by the server, or forward_as attachment. " +
      "Attach parts already in the mailbox with attach (fetched by the server); files from elsewhere with attachments as base64; 20 MB in all " +
      "(and 20 MB across messages being sent at once on this connection: send large files one message at a time). markdown instead of text/html gives both parts. " +
      "A copy is filed in the Sent folder (saved_to), unless the provider files sent mail itself (saved_to null). " +
      "rejected lists recipients the server refused while others were accepted. The same message asked again within 10 minutes is not sent twice: the repeat gets the first outcome.",
    inputSchema: {
      ...messageFields,
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
    let assembled: Assembled | undefined;
    try {
      const deps = await outgoingDeps(ctx);
      // Every argument checked (from among them) before the gate looks at anything or SMTP is reached.
      const prepared = prepare(args, "send", await senderFor(identities, ctx, deps.account));
      return await ctx.sending.send({
        tool: "send_email", identity: identity(args), dryRun: args.dry_run,
        compose: async () => outgoingMail((assembled = await assemble(deps, prepared)), prepared.reply !== null),
      });
    } finally {
      assembled?.release();
      release();
    }
  },
});
