// get_email: one message as readable text. MIME parsing is mailparser's (which also turns an
// HTML-only body into text with html-to-text); this file picks fields and cleans them.
import type { ImapFlow, MessageStructureObject } from "imapflow";
import type { AddressObject, Attachment, ParsedMail } from "mailparser";
import { fetchByUid, uidNotFound, withMailbox } from "./imap.ts";
import { cleanLine, cleanText } from "./sanitize.ts";
import { attachmentNodes, partFilename, SUMMARY_QUERY, toSummary, type Address, type Summary } from "./summary.ts";

export interface AttachmentInfo {
  /** IMAP body part number, e.g. "2" or "1.2". */
  part: string;
  filename: string | null;
  content_type: string;
  /** Decoded bytes. */
  size: number;
}

export interface FullEmail extends Summary {
  in_reply_to: string | null;
  references: string[];
  reply_to: Address[];
  body_text: string;
  truncated: boolean;
  attachments: AttachmentInfo[];
}

export interface EmailQuery {
  folder: string;
  uid: number;
  maxChars: number;
}

// A message up to this size is fetched whole and parsed in one round trip. A larger one (big
// attachments) is read part by part, so memory stays bounded whatever a sender mails.
export const WHOLE_MESSAGE_LIMIT = 4 * 1024 * 1024;
// The most of one text part a large message contributes, in decoded bytes: far above max_chars.
const TEXT_PART_LIMIT = 2 * 1024 * 1024;
// mailparser's guard against pathological HTML; kept above both limits so it never trips.
const MAX_HTML_TO_PARSE = 5 * 1024 * 1024;

// Loaded on first use: mailparser (+ html-to-text, iconv) is ~8 MB RSS an idle server does not need.
// The promise is kept: a repeated import() still costs ~0.07 ms per call on the bench server.
let mailparser: Promise<typeof import("mailparser")> | undefined;

async function parse(source: Buffer): Promise<ParsedMail> {
  const { simpleParser } = await (mailparser ??= import("mailparser"));
  return simpleParser(source, { maxHtmlLengthToParse: MAX_HTML_TO_PARSE, skipTextToHtml: true, skipImageLinks: true });
}

/** Fetches with BODY.PEEK[] inside EXAMINE: reading never sets \Seen, twice over. */
export async function getEmail(client: ImapFlow, q: EmailQuery): Promise<FullEmail> {
  return withMailbox(client, q.folder, async (box) => {
    const msg = await fetchByUid(client, q.uid, { ...SUMMARY_QUERY, source: { maxLength: WHOLE_MESSAGE_LIMIT } });
    if (!msg || !msg.source) throw await uidNotFound(client, box, q.uid);
    const whole = (msg.size ?? 0) <= WHOLE_MESSAGE_LIMIT;
    const parsed = await parse(whole ? msg.source : headerBlock(msg.source));
    const body = whole ? { text: bodyText(parsed), cut: false } : await largeBodyText(client, q.uid, msg.bodyStructure);
    const { text, truncated } = window(cleanText(body.text), q.maxChars);
    return {
      ...toSummary(msg, box.path),
      in_reply_to: parsed.inReplyTo ? cleanLine(parsed.inReplyTo) : null,
      references: referencesOf(parsed),
      reply_to: addressesOf(parsed.replyTo),
      body_text: text,
      truncated: truncated || body.cut,
      attachments: attachmentsOf(msg.bodyStructure, parsed.attachments),
    };
  }, { readOnly: true, freshness: "verify" });
}

/** The text part, or the HTML part converted to text by mailparser when there is no text part. */
function bodyText(parsed: ParsedMail): string {
  return (parsed.text ?? "").replace(/\s+$/, "");
}

/** The header section of a raw message (RFC 5322 §2.1: it ends at the first empty line). */
function headerBlock(source: Buffer): Buffer {
  const end = source.indexOf("\r\n\r\n");
  return end < 0 ? source : source.subarray(0, end + 4);
}

/** The first inline text/plain part, else the first text/html part (depth first, as mail clients do). */
function textNode(root: MessageStructureObject | undefined): MessageStructureObject | null {
  const nodes: MessageStructureObject[] = [];
  const walk = (n: MessageStructureObject) => {
    if (n.childNodes?.length) n.childNodes.forEach(walk);
    else if (n.disposition !== "attachment") nodes.push(n);
  };
  if (root) walk(root);
  return nodes.find((n) => n.type === "text/plain") ?? nodes.find((n) => n.type === "text/html") ?? null;
}

/** A large message's text: only its text part is downloaded (decoded to UTF-8 by imapflow), capped. */
async function largeBodyText(client: ImapFlow, uid: number, root: MessageStructureObject | undefined): Promise<{ text: string; cut: boolean }> {
  const node = textNode(root);
  if (!node) return { text: "", cut: false };
  const part = node.part ?? "1"; // a single-part message has no part number: its body is part 1
  const { content } = await client.download(String(uid), part, { uid: true, maxBytes: TEXT_PART_LIMIT });
  if (!content) return { text: "", cut: false };
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  const cut = bytes.length >= TEXT_PART_LIMIT;
  if (node.type === "text/plain") return { text: bytes.toString("utf8").replace(/\s+$/, ""), cut };
  // HTML → text through the same converter as whole messages: a one-part message around it.
  const html = Buffer.concat([Buffer.from("Content-Type: text/html; charset=utf-8\r\n\r\n"), bytes]);
  return { text: bodyText(await parse(html)), cut };
}

/** At most maxChars characters (code points, so a surrogate pair is never split). */
export function window(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const chars = Array.from(text);
  if (chars.length <= maxChars) return { text, truncated: false };
  return { text: chars.slice(0, maxChars).join(""), truncated: true };
}

function referencesOf(parsed: ParsedMail): string[] {
  const refs = parsed.references;
  const list = Array.isArray(refs) ? refs : refs ? refs.split(/\s+/) : [];
  return list.map(cleanLine).filter(Boolean);
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): Address[] {
  const objects = Array.isArray(field) ? field : field ? [field] : [];
  return objects.flatMap((o) => o.value).flatMap((a) => (a.group ?? [a]))
    .filter((a) => a.address)
    .map((a) => ({ name: a.name ? cleanLine(a.name) || null : null, address: cleanLine(a.address ?? "") }));
}

// Part numbers come from BODYSTRUCTURE (what a later download would use); decoded sizes from
// mailparser, matched by part number, else estimated from the transfer encoding.
function attachmentsOf(root: MessageStructureObject | undefined, parsed: Attachment[]): AttachmentInfo[] {
  const byPart = new Map(parsed.filter((a) => a.partId).map((a) => [a.partId!, a]));
  return attachmentNodes(root).map((node) => {
    const match = byPart.get(node.part!);
    const filename = partFilename(node) ?? match?.filename ?? null;
    return {
      part: node.part!,
      filename: filename ? cleanLine(filename) : null,
      content_type: cleanLine(node.type), // written by the sender like the filename
      size: match?.size ?? estimateDecoded(node),
    };
  });
}

function estimateDecoded(node: MessageStructureObject): number {
  const size = node.size ?? 0;
  if (node.encoding?.toLowerCase() !== "base64") return size;
  return Math.floor((size * 57) / 78); // 57 bytes per 76-character line plus CRLF
}
