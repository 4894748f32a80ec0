// get_email: one message as readable text. The IMAP work happens under the mailbox lock; parsing
// the MIME tree (../mime/) and converting HTML (../content/html-text/, in a helper process) happen
// after it is released, so a slow message never holds the token's connection. A small message read
// before on this connection is kept, parsed (./message-cache.ts): reading it again fetches only its flags.
import type { ImapFlow, MailboxObject, MessageStructureObject } from "imapflow";
import { attachmentsOf, capAttachments, type AttachmentInfo } from "./attachment-list.ts";
import { invitationOf } from "../calendar/invitation-part.ts";
import type { Invitation } from "../calendar/invitation.ts";
import { htmlToText } from "../content/html-text/convert.ts";
import type { HtmlFormat } from "../content/html-text/converter.ts";
import type { ContentReaders } from "../content/readers.ts";
import { fetchByUid, withMailbox } from "../imap/mailbox.ts";
import { uidNotFound } from "../imap/uids.ts";
import { bodySegments, type Segment } from "../mime/readable-parts.ts";
import { MAX_NESTING, MAX_PARTS, parseMessage } from "../mime/tree.ts";
import { cleanText } from "../content/sanitize.ts";
import { keepMessage, keptMessage, KEPT_MESSAGE_BYTES, type MessageRead } from "./message-cache.ts";
import { validityOf } from "./summary-cache.ts";
import { FLAGS_QUERY, SUMMARY_QUERY, toSummary, withFlags, type Address, type Summary } from "./summary.ts";
import { trustedAuthservIds } from "./sender/trust.ts";
import { textPartOf, type TextPart } from "./text-part.ts";

export type { AttachmentInfo };

export interface FullEmail extends Summary {
  in_reply_to: string | null;
  references: string[];
  reply_to: Address[];
  body_text: string;
  truncated: boolean;
  /** Where the rest of the body begins (characters), when more remains; else null. */
  next_offset: number | null;
  /** Why body_text is a simplified rendering (HTML too complex, too long), or null. */
  body_note: string | null;
  attachments: AttachmentInfo[];
  /** Attachments left out of `attachments` (past 1,000 of them, or ~96 KB of list). */
  attachments_omitted: number;
  /** The invitation the message carries; your_status is filled by the caller, who knows the mailbox's addresses. */
  invitation: Invitation | null;
}

export interface EmailQuery {
  folder: string;
  uid: number;
  maxChars: number;
  /** Characters into the body (default 0). */
  offset?: number;
  /** How HTML parts are rendered (default text). */
  format?: HtmlFormat;
}

// A message up to this size is fetched whole and parsed in one round trip. A larger one (big
// attachments) is read part by part, so memory stays bounded whatever a sender mails.
export const WHOLE_MESSAGE_LIMIT = 4 * 1024 * 1024;
// The most of one text part a large message contributes, in octets as the server holds it: far above max_chars.
const TEXT_PART_LIMIT = 2 * 1024 * 1024;

interface Fetched {
  summary: Summary;
  /** What the message yields, when it was kept from an earlier read (./message-cache.ts). */
  kept: MessageRead | null;
  /** Otherwise what came: the source (whole, or its first WHOLE_MESSAGE_LIMIT bytes) and structure. */
  source: Buffer;
  whole: boolean;
  structure: MessageStructureObject | undefined;
  /** A large message's text part, fetched alone. */
  large: TextPart | null;
  /** Where to keep what it yields (a whole message small enough), else null. */
  keep: { path: string; validity: string } | null;
}

/** Fetches with BODY.PEEK[] inside EXAMINE: reading never sets \Seen, twice over. */
export async function getEmail(client: ImapFlow, q: EmailQuery, readers: ContentReaders): Promise<FullEmail> {
  const f = await withMailbox(client, q.folder, (box) => fetchMessage(client, box, q.uid), {
    readOnly: true, freshness: "verify", flagChanges: "shown", // another message's flags are not this one's
  });
  const read = f.kept ?? await readSource(f);
  if (f.keep) keepMessage(client, f.keep.path, f.keep.validity, { fixed: f.summary, read });
  const offset = q.offset ?? 0;
  const body = await readable(read.segments, offset + q.maxChars, readers, q.format);
  body.notes.push(...read.notes);
  const { text, nextOffset } = window(body.text, q.maxChars, offset);
  return {
    ...f.summary,
    in_reply_to: read.inReplyTo,
    references: read.references,
    reply_to: read.replyTo,
    body_text: text,
    truncated: nextOffset !== null || read.cut,
    next_offset: nextOffset,
    body_note: body.notes.join(" ") || null,
    attachments: read.attachments,
    attachments_omitted: read.attachmentsOmitted,
    invitation: read.invitation,
  };
}

/** What a message yields whatever part of its body is asked for: parsed once per read, or kept. */
async function readSource(f: Fetched): Promise<MessageRead> {
  const parsed = await parseMessage(f.whole ? f.source : headerBlock(f.source));
  await breathe();
  const segments = f.large ? [f.large.segment] : f.whole ? bodySegments(parsed) : [];
  await breathe();
  const notes: string[] = [];
  if (!f.structure && !f.whole) notes.push(UNREADABLE_LARGE);
  if (parsed.tooDeep) notes.push(TOO_DEEP);
  if (parsed.tooMany) notes.push(TOO_MANY);
  const listed = capAttachments(attachmentsOf(f.structure, f.whole ? parsed : null));
  return {
    inReplyTo: parsed.headers.inReplyTo(), references: parsed.headers.references(), replyTo: parsed.headers.addresses("reply-to"),
    segments, notes, cut: f.large?.cut ?? false, attachments: listed.attachments, attachmentsOmitted: listed.omitted,
    invitation: f.whole ? invitationOf(parsed) : null,
  };
}

/**
 * The message, inside the locked, current folder. One read before (./message-cache.ts) needs only
 * its current flags: a UID FETCH like the full one, so the same freshness rule applies, and a message
 * expunged meanwhile is not found.
 */
async function fetchMessage(client: ImapFlow, box: MailboxObject, uid: number): Promise<Fetched> {
  const validity = validityOf(client);
  const kept = validity === null ? undefined : keptMessage(client, box.path, validity, uid);
  if (kept) {
    const msg = await fetchByUid(client, uid, FLAGS_QUERY);
    if (!msg) throw await uidNotFound(client, box, uid);
    return { summary: withFlags(kept.fixed, msg), kept: kept.read, source: EMPTY, whole: true, structure: undefined, large: null, keep: null };
  }
  const msg = await fetchByUid(client, uid, { ...SUMMARY_QUERY, source: { maxLength: WHOLE_MESSAGE_LIMIT } });
  if (!msg || !msg.source) throw await uidNotFound(client, box, uid);
  // Whole when fewer bytes came than were asked for: what arrived decides, not the server's
  // RFC822.SIZE, which a hostile server can understate or overstate (docs/decisions.md "A hostile
  // mail server").
  const whole = msg.source.length < WHOLE_MESSAGE_LIMIT;
  const large = whole ? null : await textPartOf(client, uid, msg.bodyStructure, TEXT_PART_LIMIT);
  const keep = whole && validity !== null && msg.source.length <= KEPT_MESSAGE_BYTES ? { path: box.path, validity } : null;
  return { summary: toSummary(msg, box.path, trustedAuthservIds(client)), kept: null, source: msg.source, whole, structure: msg.bodyStructure, large, keep };
}

const EMPTY = Buffer.alloc(0);

export const TOO_MANY = `Only the first ${MAX_PARTS} parts of this message were read.`;
export const TOO_DEEP = `Parts nested more than ${MAX_NESTING} levels deep are left out (no mail program nests so deep).`;

// Without a readable structure (../imap/structure-guard.ts) a message is read from its own MIME,
// which is fetched whole only up to WHOLE_MESSAGE_LIMIT.
const UNREADABLE_LARGE = "This message's structure is too large or nested too deeply to read, and the message is over 4 MB, " +
  "so its text and attachments could not be found. Open it in a mail program.";

// Each step on a 4 MB message costs the event loop ~10-25 ms; letting other requests in between
// keeps one message from adding them up into one long stall.
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The body segments as one text: HTML converted (bounded, off the event loop), enough for `need`
 * characters (offset + max_chars). What comes before `need` never depends on `need`, so pieces
 * read at different offsets fit together exactly.
 */
export async function readable(
  segments: Segment[], need: number, readers: ContentReaders, format: HtmlFormat = "text",
): Promise<{ text: string; notes: string[] }> {
  const parts: string[] = [];
  const notes: string[] = [];
  let length = 0;
  for (const seg of segments) {
    if (length > 2 * need) break; // the window cannot show more
    const t = seg.kind === "text" ? { text: seg.text, note: null } : await htmlToText(seg.html, need, readers, format);
    if (seg.kind === "html" && seg.note) notes.push(seg.note);
    if (t.note) notes.push(t.note);
    const trimmed = t.text.replace(/\s+$/, "");
    if (trimmed) parts.push(trimmed);
    length += trimmed.length;
  }
  return { text: parts.join("\n\n"), notes };
}

/** The header section of a raw message (RFC 5322 §2.1: it ends at the first empty line). */
function headerBlock(source: Buffer): Buffer {
  const end = source.indexOf("\r\n\r\n");
  return end < 0 ? source : source.subarray(0, end + 4);
}

// cleanText on megabytes would cost the event loop tens of ms for text the window drops anyway:
// only a generous prefix is cleaned. Cleaning is character by character (line ends aside), so the
// cleaned prefix is the prefix of the cleaned whole, and pieces at different offsets fit together.
const precut = (end: number) => 2 * end + 4096;

export interface Window {
  text: string;
  /** More follows (or a cap cut the text). */
  truncated: boolean;
  /** Where the next piece begins, in characters; null when the rest is only whitespace. */
  nextOffset: number | null;
}

/**
 * Characters offset .. offset + maxChars of `raw` (code points, so a surrogate pair is never split),
 * cleaned for a model; trailing whitespace of the whole is dropped.
 */
export function window(raw: string, maxChars: number, offset = 0): Window {
  const end = offset + maxChars;
  let limit = precut(end);
  if (limit < raw.length && /[\ud800-\udbff]/.test(raw[limit - 1]!)) limit--; // never half a pair
  const cut = raw.length > limit;
  const cleaned = cleanText(cut ? raw.slice(0, limit) : raw);
  const text = cut ? cleaned : cleaned.replace(/\s+$/, "");
  if (!cut && offset === 0 && text.length <= maxChars) return { text, truncated: false, nextOffset: null };
  const chars = Array.from(text);
  const piece = chars.slice(offset, end);
  const more = cut || chars.length > end;
  return { text: piece.join(""), truncated: more, nextOffset: more ? offset + piece.length : null };
}
