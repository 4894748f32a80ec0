// What saving a draft and sending share: the arguments, their checks (every one before the first byte
// goes to SMTP or IMAP), the reply threading, and composing the message.
import type { ImapFlow } from "imapflow";
import { parseAllRecipients, type Recipients } from "../compose/recipients.ts";
import { InputError } from "../errors.ts";
import { composeMessage, decodeAttachments, replyThreading, type Attachment, type AttachmentArg, type ReplyThreading } from "../compose/message.ts";
import type { MailAccount } from "../account.ts";
import type { OutgoingMessage, SendResult } from "../smtp/pool.ts";
import { fetchReplySource } from "./reply-source.ts";

export interface OutgoingDeps {
  account: MailAccount;
  /** Submits over SMTP as `account` (the token's transport, src/mail/smtp/pool.ts). */
  submit(message: OutgoingMessage): Promise<SendResult>;
  /** retryOnDrop: false for APPEND, which a blind retry after a dropped connection could file twice. */
  withImap<T>(fn: (client: ImapFlow) => Promise<T>, options?: { retryOnDrop?: boolean }): Promise<T>;
}

/** For APPEND and SMTP: a blind retry after a dropped connection could do it twice. */
export const ONCE = { retryOnDrop: false };

/** The draft_email / send_email arguments as the tools receive them (docs/design.md §6). */
export interface OutgoingArgs {
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  subject?: string;
  text?: string;
  html?: string;
  reply_to_uid?: number;
  reply_folder?: string;
  attachments?: AttachmentArg[];
}

export interface Prepared {
  recipients: Recipients;
  attachments: Attachment[];
  replyFolder: string;
}

export function prepare(args: OutgoingArgs, kind: "draft" | "send"): Prepared {
  const recipients = parseAllRecipients(args);
  if (args.subject !== undefined && /[\r\n]/.test(args.subject)) throw new InputError("subject", "must be a single line");
  if (args.subject === undefined && args.reply_to_uid === undefined) throw new InputError("subject", "is required unless reply_to_uid is given");
  const attachments = decodeAttachments(args.attachments);
  if (kind === "send" && !args.text && !args.html && !attachments.length) {
    throw new InputError("text", "give text, html or attachments: an empty message is refused");
  }
  return { recipients, attachments, replyFolder: args.reply_folder ?? "INBOX" };
}

export async function threading(client: ImapFlow, args: OutgoingArgs, replyFolder: string): Promise<ReplyThreading> {
  if (args.reply_to_uid === undefined) return { subject: args.subject ?? "" };
  return replyThreading(await fetchReplySource(client, replyFolder, args.reply_to_uid), args.subject);
}

export async function compose(deps: OutgoingDeps, args: OutgoingArgs, p: Prepared, t: ReplyThreading) {
  return composeMessage({ from: deps.account.email, recipients: p.recipients, text: args.text, html: args.html, attachments: p.attachments, ...t });
}

