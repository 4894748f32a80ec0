// THE ONE PLACE A MESSAGE IS HANDED TO SMTP. Only the send gate (./gate.ts, through ./transmit.ts)
// calls it, after the policy, the person's answer, the caps and the at-most-once claim (docs/design.md
// §3); test/architecture/send-seam.test.ts fails when a file outside src/sending/ imports it or the
// SMTP pool's send. After SMTP accepted the message: a copy is filed in \Sent (unless the
// provider files it itself), the message answered gets \Answered, the one forwarded $Forwarded
// (RFC 5788 keyword registry), and a sent draft leaves Drafts. Those are best effort: the send has
// happened, so a failure among them is a warning, never an error a caller would answer by sending
// again.
import type { ImapFlow } from "imapflow";
import { withMailbox } from "../mail/imap/mailbox.ts";
import type { OutgoingMessage, SendResult as Submitted } from "../mail/smtp/pool.ts";
import { appendSent } from "../mail/write/append.ts";
import type { Deliverable } from "../mail/write/deliverable.ts";
import { ONCE, type OutgoingDeps } from "../mail/write/outgoing.ts";
import { removeMessage } from "../mail/write/remove.ts";

export type { Deliverable };

type Where = { folder: string; uid: number };

/** What to do in the mailbox once the message has gone. */
export interface Afterwards {
  answered?: Where;
  forwarded?: Where;
  /** send_draft: the draft that was sent, removed from its folder. */
  sentDraft?: Where;
}

export interface Delivered {
  message_id: string;
  accepted: string[];
  rejected: string[];
  saved_to: string | null;
  /** The envelope sender (MAIL FROM): the From identity's address. */
  from: string;
  /** Things that went wrong after the message was sent: never an error, or a caller would resend. */
  warnings: string[];
}

/** `submit`: the SMTP pool's send for this call's token and mailbox (./sending.ts binds it). */
export async function deliver(submit: (m: OutgoingMessage) => Promise<Submitted>, deps: OutgoingDeps, msg: Deliverable, after: Afterwards = {}): Promise<Delivered> {
  const sent = await submit({ messageId: msg.messageId, raw: msg.wire, envelope: msg.envelope });
  const out: Delivered = { message_id: msg.messageId, accepted: sent.accepted, rejected: sent.rejected, saved_to: null, from: msg.envelope.from, warnings: [] };
  const attempt = async (what: string, fn: (c: ImapFlow) => Promise<unknown>) => {
    try {
      await deps.withImap(fn, ONCE);
    } catch (err) {
      out.warnings.push(`The message was sent, but ${what} failed: ${(err as Error).message}`);
    }
  };
  if (!deps.account.providerSavesSent) {
    await attempt("saving a copy to the Sent folder", async (c) => (out.saved_to = (await appendSent(c, msg.stored, msg.messageId)).folder));
  }
  if (after.answered) await attempt("flagging the original message as answered", flag(after.answered, "\\Answered"));
  if (after.forwarded) await attempt("flagging the original message as forwarded", flag(after.forwarded, "$Forwarded"));
  if (after.sentDraft) {
    const d = after.sentDraft;
    await attempt(`removing the draft (uid ${d.uid} in ${d.folder}; delete it yourself and do not send it again)`, (c) => removeMessage(c, d.folder, d.uid));
  }
  return out;
}

// RFC 3501 \Answered, RFC 5788 $Forwarded: mail clients show the original as replied to or forwarded.
const flag = (where: Where, name: string) => (c: ImapFlow) =>
  withMailbox(c, where.folder, () => c.messageFlagsAdd(String(where.uid), [name], { uid: true }), { freshness: "none" });
