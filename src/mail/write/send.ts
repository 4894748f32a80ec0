// send_email's mail work: compose, submit over SMTP, file a copy in \Sent, flag the parent answered.
import { withMailbox } from "../imap/mailbox.ts";
import { appendSent } from "./append.ts";
import { compose, ONCE, prepare, threading, type OutgoingArgs, type OutgoingDeps } from "./outgoing.ts";

export interface SendOutcome {
  message_id: string;
  accepted: string[];
  rejected: string[];
  saved_to: string | null;
  subject: string;
  /** Things that went wrong after the message was sent: never an error, or a caller would resend. */
  warnings: string[];
}

/** send_email: validate, read the parent (replies), send, then file in \Sent and flag the parent. */
export async function sendEmail(deps: OutgoingDeps, args: OutgoingArgs): Promise<SendOutcome> {
  const p = prepare(args, "send");
  const t = args.reply_to_uid === undefined ? { subject: args.subject ?? "" } : await deps.withImap((c) => threading(c, args, p.replyFolder));
  const msg = await compose(deps, args, p, t);
  const sent = await deps.submit({ messageId: msg.messageId, raw: msg.wire, envelope: msg.envelope });
  const out: SendOutcome = { message_id: msg.messageId, accepted: sent.accepted, rejected: sent.rejected, saved_to: null, subject: msg.subject, warnings: [] };
  if (!deps.account.providerSavesSent) {
    try {
      out.saved_to = (await deps.withImap((c) => appendSent(c, msg.stored, msg.messageId), ONCE)).folder;
    } catch (err) {
      out.warnings.push(`The message was sent, but saving a copy to the Sent folder failed: ${(err as Error).message}`);
    }
  }
  if (args.reply_to_uid !== undefined) await markAnswered(deps, p.replyFolder, args.reply_to_uid, out.warnings);
  return out;
}

// RFC 3501 \Answered: mail clients show the parent as replied to. Best effort; the send succeeded.
async function markAnswered(deps: OutgoingDeps, folder: string, uid: number, warnings: string[]): Promise<void> {
  try {
    await deps.withImap((c) => withMailbox(c, folder, () => c.messageFlagsAdd(String(uid), ["\\Answered"], { uid: true }), { freshness: "none" }));
  } catch (err) {
    warnings.push(`Could not flag the original message as answered: ${(err as Error).message}`);
  }
}
