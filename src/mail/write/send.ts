// send_email's mail work, in the steps the send gate (src/mcp/send-gate/) puts its checks between:
// compose (read the parent of a reply, build the MIME), deliver (submit over SMTP, file a copy in
// \Sent), and the reply's \Answered flag. sendEmail() runs them in a row, with no gate.
import { withMailbox } from "../imap/mailbox.ts";
import { stripTags } from "../content/html-text/strip.ts";
import { appendSent } from "./append.ts";
import { compose, ONCE, prepare, threading, type OutgoingArgs, type OutgoingDeps } from "./outgoing.ts";
import type { Composed } from "../compose/message.ts";
import type { Mailbox } from "../compose/recipients.ts";

/** A message ready to go, and what a person reviewing it is shown. */
export interface ComposedSend extends Composed {
  recipients: { to: Mailbox[]; cc: Mailbox[]; bcc: Mailbox[] };
  attachments: Array<{ filename: string; size: number }>;
  /** The start of the body as plain text, for a person deciding whether to send it. */
  preview: string;
  /** The message a reply answers, to flag \Answered once it is sent. */
  replyTo?: { folder: string; uid: number };
}

export interface Delivered {
  accepted: string[];
  rejected: string[];
  saved_to: string | null;
  /** Things that went wrong after the message was sent: never an error, or a caller would resend. */
  warnings: string[];
}

export interface SendOutcome extends Delivered {
  message_id: string;
  subject: string;
}

const PREVIEW_CHARS = 600;

/** Validates the arguments, reads the parent of a reply, and builds the message. Nothing is sent or stored. */
export async function composeSend(deps: OutgoingDeps, args: OutgoingArgs): Promise<ComposedSend> {
  const p = prepare(args, "send");
  const t = args.reply_to_uid === undefined ? { subject: args.subject ?? "" } : await deps.withImap((c) => threading(c, args, p.replyFolder));
  const msg = await compose(deps, args, p, t);
  const body = args.text ?? (args.html ? stripTags(args.html, 0, PREVIEW_CHARS) : "");
  return {
    ...msg,
    recipients: p.recipients,
    attachments: p.attachments.map((a) => ({ filename: a.filename, size: a.content.length })),
    preview: body.slice(0, PREVIEW_CHARS),
    ...(args.reply_to_uid !== undefined ? { replyTo: { folder: p.replyFolder, uid: args.reply_to_uid } } : {}),
  };
}

/** Submits over SMTP, then files the copy (with Bcc) in \Sent unless the provider does that itself. */
export async function deliver(deps: OutgoingDeps, msg: Pick<Composed, "messageId" | "wire" | "stored" | "envelope">): Promise<Delivered> {
  const sent = await deps.submit({ messageId: msg.messageId, raw: msg.wire, envelope: msg.envelope });
  const out: Delivered = { accepted: sent.accepted, rejected: sent.rejected, saved_to: null, warnings: [] };
  if (!deps.account.providerSavesSent) {
    try {
      out.saved_to = (await deps.withImap((c) => appendSent(c, msg.stored, msg.messageId), ONCE)).folder;
    } catch (err) {
      out.warnings.push(`The message was sent, but saving a copy to the Sent folder failed: ${(err as Error).message}`);
    }
  }
  return out;
}

/** send_email without a gate: validate, read the parent (replies), send, then file in \Sent and flag the parent. */
export async function sendEmail(deps: OutgoingDeps, args: OutgoingArgs): Promise<SendOutcome> {
  const msg = await composeSend(deps, args);
  const out = await deliver(deps, msg);
  if (msg.replyTo) out.warnings.push(...(await markAnswered(deps, msg.replyTo)));
  return { ...out, message_id: msg.messageId, subject: msg.subject };
}

/** RFC 3501 \Answered: mail clients show the parent as replied to. Best effort once sent: a failure is a warning. */
export async function markAnswered(deps: OutgoingDeps, { folder, uid }: { folder: string; uid: number }): Promise<string[]> {
  try {
    await deps.withImap((c) => withMailbox(c, folder, () => c.messageFlagsAdd(String(uid), ["\\Answered"], { uid: true }), { freshness: "none" }));
    return [];
  } catch (err) {
    return [`Could not flag the original message as answered: ${(err as Error).message}`];
  }
}
