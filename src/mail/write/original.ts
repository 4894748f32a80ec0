// The message a reply answers or a forward passes on: its people, threading ids and subject, and
// (to quote or forward it inline) its readable text, read as get_email reads a body. Small
// messages are fetched whole; a larger one (big attachments) only its text part, so forwarding a
// 20 MB message does not download it twice.
import type { ContentReaders } from "../content/readers.ts";
import type { ImapFlow, MessageStructureObject } from "imapflow";
import type { ReplySource } from "../compose/message.ts";
import type { QuotedSource } from "../compose/quote.ts";
import type { ReplyOriginal } from "../compose/reply-recipients.ts";
import { MailError } from "../errors.ts";
import { fetchByUid, withMailbox } from "../imap/mailbox.ts";
import { bodySegments } from "../mime/readable-parts.ts";
import { firstMessageId } from "../mime/message-ids.ts";
import { parseMessage } from "../mime/tree.ts";
import { attachmentsOf, type AttachmentInfo } from "../read/attachment-list.ts";
import { readable, window } from "../read/message.ts";
import { textPartOf } from "../read/text-part.ts";
import { SUMMARY_HEADERS, SUMMARY_QUERY, toSummary } from "../read/summary.ts";
import type { AddressedTo } from "../identities/identity.ts";

export interface Original extends QuotedSource, ReplyOriginal, AddressedTo {
  /** The folder's real path. */
  folder: string;
  uid: number;
  threading: ReplySource;
  attachments: AttachmentInfo[];
  structure: MessageStructureObject | undefined;
  /** RFC822.SIZE: what forwarding it as an attachment costs. */
  size: number;
}

/** A message up to this size is fetched whole for its text; a larger one only its text part. */
const WHOLE_LIMIT = 1024 * 1024;
/** How much of the original's text a quote or an inline forward carries (a `[…]` line says when cut). */
export const QUOTE_MAX_CHARS = 100_000;
/** The most of a large original's text part downloaded: room for QUOTE_MAX_CHARS in any encoding. */
const TEXT_PART_BYTES = 8 * QUOTE_MAX_CHARS;

/** `argument` names the tool argument (reply_to_uid, forward_uid) in errors. */
export async function readOriginal(client: ImapFlow, folder: string, uid: number, argument: string, withBody: boolean,
  content: ContentReaders): Promise<Original> {
  const f = await withMailbox(client, folder, async (box) => {
    const msg = await fetchByUid(client, uid, { ...SUMMARY_QUERY, headers: [...SUMMARY_HEADERS, "reply-to", "references", "in-reply-to", "delivered-to", "x-original-to"] });
    if (!msg) throw new MailError("not_found", `${argument}: no message with uid ${uid} in "${box.path}". Use get_recent_emails or search_emails to find its uid.`);
    const size = msg.size ?? 0;
    const whole = withBody && size <= WHOLE_LIMIT ? (await fetchByUid(client, uid, { uid: true, source: true }))?.source ?? null : null;
    const large = withBody && !whole ? await textPartOf(client, uid, msg.bodyStructure, TEXT_PART_BYTES) : null;
    return { summary: toSummary(msg, box.path), headers: msg.headers ?? Buffer.alloc(0), structure: msg.bodyStructure, size, whole, large };
  }, { readOnly: true, freshness: "verify" });
  const parsed = await parseMessage(f.whole ?? f.headers);
  const segments = f.whole ? bodySegments(parsed) : f.large ? [f.large.segment] : [];
  const body = window((await readable(segments, QUOTE_MAX_CHARS, content)).text, QUOTE_MAX_CHARS);
  const s = f.summary;
  return {
    folder: s.folder, uid, from: s.from, to: s.to, cc: s.cc, date: s.date, subject: s.subject,
    replyTo: parsed.headers.addresses("reply-to"),
    // Set by the receiving server: which of the mailbox's addresses a Bcc'd or list message came to.
    deliveredTo: [...parsed.headers.addresses("delivered-to"), ...parsed.headers.addresses("x-original-to")].flatMap((a) => (a.address ? [a.address] : [])),
    bodyText: body.text,
    truncated: body.truncated || (f.large?.cut ?? false),
    // Parsed, never copied raw: a sender's `<id> Bcc: victim@x` must not reach our headers.
    threading: { messageId: firstMessageId(s.message_id), inReplyTo: parsed.headers.inReplyTo(), references: parsed.headers.references(), subject: s.subject },
    attachments: attachmentsOf(f.structure, f.whole ? parsed : null),
    structure: f.structure,
    size: f.size,
  };
}
