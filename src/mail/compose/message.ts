// Builds outgoing RFC 5322 messages with nodemailer's MailComposer (never hand-built MIME), plus the
// reply threading and attachment decoding that feed it.
import { randomBytes } from "node:crypto";
import { envelopeRecipients, type Mailbox, type Recipients } from "./recipients.ts";
import { InputError } from "../errors.ts";
import { replyReferences } from "../mime/message-ids.ts";

/** Outgoing attachments, all together, decoded bytes (docs/design.md §7). */
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

export interface Attachment {
  filename: string;
  content: Buffer;
  contentType?: string;
}

export interface ComposeInput {
  /** An address, or an identity with its display name. */
  from: string | { name: string | null; address: string };
  recipients: Recipients;
  subject: string;
  text?: string;
  html?: string;
  attachments?: Attachment[];
  inReplyTo?: string;
  references?: string[];
  /** An iMIP calendar part (RFC 6047 §2.4): text/calendar; method=… beside the text. */
  calendar?: { method: string; content: string };
}

export interface Composed {
  messageId: string;
  subject: string;
  recipients: Recipients;
  /** With the Bcc header: the copy filed in Drafts or Sent, so the sender still sees who was Bcc'd. */
  stored: Buffer;
  /** Without Bcc: what goes over SMTP, so Bcc recipients stay hidden from the others. */
  wire: Buffer;
  envelope: { from: string; to: string[] };
}

/** `<random@sender-domain>`: generated here, not by nodemailer, so the tool can return it up front. */
export function newMessageId(from: string): string {
  const domain = from.slice(from.lastIndexOf("@") + 1);
  // The URL parser gives the punycode (ASCII) form of an IDN host; Message-ID must be ASCII.
  let host = "localhost";
  try {
    host = new URL(`http://${domain}`).hostname || host;
  } catch {}
  return `<${randomBytes(16).toString("hex")}@${host}>`;
}

const toHeader = (list: Mailbox[]) => list.map((m) => ({ name: m.name ?? "", address: m.address }));

// Loaded on first use: MailComposer pulls in most of nodemailer, ~12 MB RSS an idle server does not
// need. The promise is kept: a repeated import() still costs ~0.07 ms per call on the bench server.
let composer: Promise<typeof import("nodemailer/lib/mail-composer")> | undefined;

export async function composeMessage(input: ComposeInput): Promise<Composed> {
  const { default: MailComposer } = await (composer ??= import("nodemailer/lib/mail-composer"));
  const sender = typeof input.from === "string" ? { name: null, address: input.from } : input.from;
  const messageId = newMessageId(sender.address);
  const date = new Date();
  const mail = {
    from: { name: sender.name ?? "", address: sender.address },
    to: toHeader(input.recipients.to),
    cc: toHeader(input.recipients.cc),
    bcc: toHeader(input.recipients.bcc),
    subject: input.subject,
    text: input.text ?? (input.html === undefined ? "" : undefined),
    html: input.html,
    attachments: input.attachments?.map((a) => ({
      filename: a.filename, content: a.content, contentType: a.contentType, contentDisposition: "attachment" as const,
      ...(isMessage(a.contentType) ? { contentTransferEncoding: messageEncoding(a.content) } : {}),
    })),
    inReplyTo: input.inReplyTo,
    references: input.references?.length ? input.references : undefined,
    icalEvent: input.calendar ? { method: input.calendar.method, content: input.calendar.content } : undefined,
    messageId,
    date,
    newline: "win",
    // The content comes from a model: it must never make us read a local file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  const build = (keepBcc: boolean) => {
    const node = new MailComposer(mail).compile();
    node.keepBcc = keepBcc;
    return node.build();
  };
  const stored = await build(true);
  const wire = input.recipients.bcc.length ? await build(false) : stored; // without Bcc they are identical
  // MAIL FROM is the From identity, as desktop mail clients send it: bounces of mail sent as an alias
  // return to the alias, SPF is checked against its domain, and a provider that does not let this
  // login send as it refuses at MAIL FROM, before the message (../smtp/errors.ts says so in words).
  return { messageId, subject: input.subject, recipients: input.recipients, stored, wire, envelope: { from: sender.address, to: envelopeRecipients(input.recipients) } };
}

const isMessage = (type: string | undefined) => /^message\/(rfc822|global)\b/i.test(type ?? "");

/**
 * RFC 2046 §5.2.1: an attached message is sent as it is, 7bit or 8bit, never base64 (mail clients
 * would not open it inline). Only one with lines longer than RFC 5322's 998 octets cannot go so
 * over SMTP without BINARYMIME; that rare one is sent in base64, which readers still save.
 */
function messageEncoding(content: Buffer): "7bit" | "8bit" | "base64" {
  let line = 0;
  let high = false;
  for (const byte of content) {
    if (byte === 0x0a) line = 0;
    else if (++line > 998) return "base64";
    if (byte > 0x7f) high = true;
  }
  return high ? "8bit" : "7bit";
}

/** What a reply needs from its parent message. */
export interface ReplySource {
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  subject: string;
}

export interface ReplyThreading {
  subject: string;
  inReplyTo?: string;
  references?: string[];
}

const RE_PREFIX = /^\s*re\s*(\[\d+\])?\s*:/i;

/**
 * RFC 5322 §3.6.4: In-Reply-To is the parent's Message-ID; References is the parent's References
 * (or, lacking those, its single In-Reply-To) followed by the parent's Message-ID, trimmed to the
 * root and the newest ids (../mime/message-ids.ts). The ids must already be parsed (readOriginal, ../write/original.ts).
 * A given subject is used as is; otherwise "Re: " is added unless the parent's subject already starts with it.
 */
export function replyThreading(parent: ReplySource, subject?: string): ReplyThreading {
  const base = parent.subject.trim();
  const out: ReplyThreading = { subject: subject ?? (RE_PREFIX.test(base) ? base : `Re: ${base}`) };
  if (!parent.messageId) return out;
  const ancestors = parent.references.length ? parent.references : parent.inReplyTo ? [parent.inReplyTo] : [];
  out.inReplyTo = parent.messageId;
  out.references = replyReferences(ancestors, parent.messageId);
  return out;
}

export interface AttachmentArg {
  filename: string;
  content_base64: string;
  content_type?: string;
}

// RFC 4648 §4 alphabet; "=" only as one or two final pad characters, length a multiple of 4.
// (A single grouped pattern like (?:[..]{4})* gives up on 27 MB inputs in JavaScriptCore.)
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64 = (s: string) => s.length % 4 === 0 && BASE64_CHARS.test(s);
// RFC 6838 §4.2 type/subtype names, no parameters (nodemailer adds the name= parameter itself).
const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;

/** Size in bytes that `b64` decodes to, computed without decoding. */
const decodedSize = (b64: string) => (b64.length / 4) * 3 - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);

/**
 * Decoded bytes of all attachments, without decoding or validating them (line breaks are not
 * counted): what a send will hold in memory, known before the send starts.
 */
export function attachmentBytes(list: readonly AttachmentArg[] | undefined): number {
  const bare = (b64: string) => (/[\r\n]/.test(b64) ? b64.replace(/[\r\n]/g, "") : b64); // no 27 MB copy when unwrapped
  return (list ?? []).reduce((n, a) => n + Math.ceil(decodedSize(bare(a.content_base64))), 0);
}

/**
 * Strict base64 (line breaks tolerated, as RFC 2045 wraps at 76 columns; anything else outside
 * the alphabet or misplaced padding is refused, because Buffer.from would silently drop it and
 * send a corrupted file). The 20 MB total is checked before anything is decoded.
 */
export function decodeAttachments(list: readonly AttachmentArg[] | undefined): Attachment[] {
  if (!list?.length) return [];
  const cleaned = list.map((a, i) => checkAttachment(a, i));
  const total = cleaned.reduce((n, c) => n + decodedSize(c.b64), 0);
  if (total > MAX_ATTACHMENT_BYTES) {
    throw new InputError("attachments", `${(total / 1048576).toFixed(1)} MB in all; at most ${MAX_ATTACHMENT_BYTES / 1048576} MB of attachments per message`);
  }
  cleaned.forEach((c, i) => {
    if (!isBase64(c.b64)) throw new InputError(`attachments[${i}].content_base64`, "is not valid base64 (characters A-Z a-z 0-9 + / with = padding only at the end; the length must be a multiple of 4)");
  });
  return cleaned.map((c) => ({ filename: c.filename, content: Buffer.from(c.b64, "base64"), contentType: c.contentType }));
}

function checkAttachment(a: AttachmentArg, i: number) {
  const arg = `attachments[${i}]`;
  const filename = a.filename.trim();
  if (!filename || filename.length > 255) throw new InputError(`${arg}.filename`, "must be 1 to 255 characters");
  if (/[\x00-\x1f\x7f/\\]/.test(filename)) throw new InputError(`${arg}.filename`, "must be a plain file name without path separators or control characters");
  if (a.content_type !== undefined && !MIME_TYPE.test(a.content_type)) throw new InputError(`${arg}.content_type`, `${JSON.stringify(a.content_type)} is not a MIME type like application/pdf`);
  return { filename, b64: a.content_base64.replace(/[\r\n]/g, ""), contentType: a.content_type };
}
