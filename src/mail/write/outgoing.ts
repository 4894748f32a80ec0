// Outgoing mail: save a draft to \Drafts, send over SMTP and file a copy in \Sent.
// Every argument is checked before the first byte goes to SMTP or IMAP.
import type { ImapFlow } from "imapflow";
import { parseAllRecipients, type Recipients } from "../compose/recipients.ts";
import { InputError } from "../errors.ts";
import { composeMessage, decodeAttachments, replyThreading, type Attachment, type AttachmentArg, type ReplyThreading } from "../compose/message.ts";
import { sendRaw } from "../smtp/pool.ts";
import { type MailAccount } from "../account.ts";
import { MailError } from "../errors.ts";
import { withMailbox } from "../imap/mailbox.ts";
import { cachedSpecialUse, forgetSpecialUse, requireSpecialUse, type SpecialUse } from "../imap/folders.ts";
import { fetchReplySource } from "./reply-source.ts";

export interface OutgoingDeps {
  tokenId: string;
  account: MailAccount;
  /** retryOnDrop: false for APPEND, which a blind retry after a dropped connection could file twice. */
  withImap<T>(fn: (client: ImapFlow) => Promise<T>, options?: { retryOnDrop?: boolean }): Promise<T>;
}

const ONCE = { retryOnDrop: false };

/** The draft_email / send_email arguments as the tools receive them (DESIGN §6). */
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

export interface Appended {
  folder: string;
  uid: number | null;
}

/**
 * APPENDs `raw` and returns its UID: from APPENDUID (RFC 4315 UIDPLUS) when the server sends it,
 * else by searching the folder for the Message-ID we generated.
 * The destination is selected read-write first: imapflow 2.1.2 drops APPEND flags that the
 * *currently selected* mailbox's PERMANENTFLAGS lack, and after a read tool's EXAMINE that list is
 * empty, so \Seen / \Draft would silently vanish. The lock also keeps other sessions off meanwhile.
 */
export async function appendMessage(client: ImapFlow, folder: string, raw: Buffer, flags: string[], messageId: string): Promise<Appended> {
  return withMailbox(client, folder, async () => {
    const res = await client.append(folder, raw, flags);
    if (!res) throw new MailError("protocol", `The server refused to save the message in ${folder}.`);
    if (res.uid) return { folder, uid: res.uid };
    await client.noop(); // learn of the new message before searching for it
    const found = (await client.search({ header: { "message-id": messageId } }, { uid: true })) || [];
    return { folder, uid: found.length ? Math.max(...found) : null };
  }, { freshness: "none" });
}

/**
 * APPENDs to the folder with `use`. A path remembered from an earlier call is tried first; if that
 * fails with a MailError (folder gone: the lock or the APPEND was refused, so nothing was stored)
 * the folders are listed again once. Other errors (a dropped connection) are not retried.
 */
async function appendToSpecial(client: ImapFlow, use: SpecialUse, raw: Buffer, flags: string[], messageId: string): Promise<Appended> {
  const cached = cachedSpecialUse(client, use);
  if (cached) {
    try {
      return await appendMessage(client, cached, raw, flags, messageId);
    } catch (err) {
      if (!(err instanceof MailError)) throw err;
      forgetSpecialUse(client);
    }
  }
  return appendMessage(client, await requireSpecialUse(client, use), raw, flags, messageId);
}

/** \Draft marks it as a draft for every client; \Seen keeps it from showing up as unread mail. */
export const appendDraft = (client: ImapFlow, raw: Buffer, messageId: string) => appendToSpecial(client, "\\Drafts", raw, ["\\Draft", "\\Seen"], messageId);

export const appendSent = (client: ImapFlow, raw: Buffer, messageId: string) => appendToSpecial(client, "\\Sent", raw, ["\\Seen"], messageId);

interface Prepared {
  recipients: Recipients;
  attachments: Attachment[];
  replyFolder: string;
}

function prepare(args: OutgoingArgs, kind: "draft" | "send"): Prepared {
  const recipients = parseAllRecipients(args);
  if (args.subject !== undefined && /[\r\n]/.test(args.subject)) throw new InputError("subject", "must be a single line");
  if (args.subject === undefined && args.reply_to_uid === undefined) throw new InputError("subject", "is required unless reply_to_uid is given");
  const attachments = decodeAttachments(args.attachments);
  if (kind === "send" && !args.text && !args.html && !attachments.length) {
    throw new InputError("text", "give text, html or attachments: an empty message is refused");
  }
  return { recipients, attachments, replyFolder: args.reply_folder ?? "INBOX" };
}

async function threading(client: ImapFlow, args: OutgoingArgs, replyFolder: string): Promise<ReplyThreading> {
  if (args.reply_to_uid === undefined) return { subject: args.subject ?? "" };
  return replyThreading(await fetchReplySource(client, replyFolder, args.reply_to_uid), args.subject);
}

async function compose(deps: OutgoingDeps, args: OutgoingArgs, p: Prepared, t: ReplyThreading) {
  return composeMessage({ from: deps.account.email, recipients: p.recipients, text: args.text, html: args.html, attachments: p.attachments, ...t });
}

/** draft_email: → {folder, uid, message_id}, plus the subject used (for the tool's text block). */
export async function saveDraft(deps: OutgoingDeps, args: OutgoingArgs) {
  const p = prepare(args, "draft");
  return deps.withImap(async (client) => {
    const msg = await compose(deps, args, p, await threading(client, args, p.replyFolder));
    const saved = await appendDraft(client, msg.stored, msg.messageId);
    return { folder: saved.folder, uid: saved.uid, message_id: msg.messageId, subject: msg.subject };
  }, ONCE);
}

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
  const sent = await sendRaw(deps.tokenId, deps.account, { messageId: msg.messageId, raw: msg.wire, envelope: msg.envelope });
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
