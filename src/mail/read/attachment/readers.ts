// Turning a part's decoded bytes into what get_attachment returns: text (plain, HTML converted, an
// attached message rendered as get_email renders one), a PDF's text, or an image checked by its
// bytes. Each reader says in `note` what a caller should know, or why nothing is returned.
import { attachmentsOf, capAttachments, type AttachmentInfo } from "../attachment-list.ts";
import { htmlToText } from "../../content/html-text/convert.ts";
import type { ContentReaders } from "../../content/readers.ts";
import { readable, TOO_DEEP, TOO_MANY, window } from "../message.ts";
import { bodySegments, decodeText } from "../../mime/readable-parts.ts";
import { headerView } from "../../mime/headers.ts";
import { parseMessage, type MimePart } from "../../mime/tree.ts";
import type { Kind } from "./kinds.ts";
import { LIMITS, megabytes } from "./limits.ts";
import type { LocatedPart } from "./parts.ts";
import { imageType, isPdf, looksLikeText, type ImageType } from "./sniff.ts";

export interface Reading {
  content: "text" | "image" | "none";
  text: string | null;
  truncated: boolean;
  /** The type the image's bytes show (the MCP image's mimeType), or null. */
  image_type: ImageType | null;
  /** A PDF's page count, or null. */
  pages: number | null;
  /** Inside an attached message: its own attachments, with part numbers to fetch them by. */
  attachments: AttachmentInfo[];
  note: string | null;
  /** What the content was read as ("xlsx", "pdf", "html", "message"…); null when nothing was read. */
  format: string | null;
  /** What a document's text leaves out (sheets, rows, columns, slides), in plain words; else null. */
  omitted: string | null;
  /** The image bytes (MCP image content), never in structuredContent. */
  image: Buffer | null;
}

/** No content: the reason, in plain words, is the note. */
export function nothing(note: string): Reading {
  return { content: "none", text: null, truncated: false, image_type: null, pages: null, attachments: [], note, format: null, omitted: null, image: null };
}

export function textReading(raw: string, maxChars: number, extra: Partial<Reading> & { cut?: boolean; notes?: Array<string | null> }): Reading {
  const { text, truncated } = window(raw, maxChars);
  const note = (extra.notes ?? []).filter(Boolean).join(" ") || null;
  return {
    content: "text", text, truncated: truncated || (extra.cut ?? false), image_type: null,
    pages: extra.pages ?? null, attachments: extra.attachments ?? [], note, format: null, omitted: null, image: null,
  };
}

const JPEG_ALIASES = new Set(["image/jpg", "image/pjpeg"]);

export function readImage(bytes: Buffer, declared: string): Reading {
  const type = imageType(bytes);
  if (!type) return nothing("Its content is not a PNG, JPEG, GIF or WebP image, whatever its declared type says, so it is not returned.");
  const said = JPEG_ALIASES.has(declared.toLowerCase()) ? "image/jpeg" : declared.toLowerCase();
  const note = said === type ? null : `Its bytes are a ${type} image, not what its declared content type says; it is returned as ${type}.`;
  return { content: "image", text: null, truncated: false, image_type: type, pages: null, attachments: [], note, format: null, omitted: null, image: bytes };
}

export async function readPdf(bytes: Buffer, maxChars: number, readers: ContentReaders): Promise<Reading> {
  if (!isPdf(bytes)) return nothing("Its content is not a PDF (it has no %PDF- header), so no text is returned.");
  const r = await readers.pdf.extract(bytes, maxChars, readers.owner);
  const limits = readers.pdf.options;
  if (r.kind === "encrypted") return nothing("The PDF is password-protected, so its text cannot be read.");
  if (r.kind === "invalid") return nothing("The PDF is damaged or in a form PDF.js cannot open, so no text could be read.");
  if (r.kind === "timeout") return nothing(`The PDF could not be read within ${limits.budgetMs / 1000} s of work (too large or too complex), so no text is returned.`);
  if (r.kind === "memory") {
    return nothing(`Reading the PDF was stopped: it needed more than the ${limits.memory.memoryMb} MB of memory this server allows one document ` +
      "(a document built to exhaust memory, or an unusually complex one), so no text is returned. Open it in a PDF viewer.");
  }
  if (r.kind === "busy") return nothing(`This server is busy reading other PDFs and could not start on this one within ${limits.maxWaitMs / 1000} s. Try again in a minute.`);
  if (r.kind === "error") return nothing("Reading the PDF failed, so no text is returned.");
  if (!r.text.trim() && r.read === r.pages) {
    return { ...nothing(`The PDF has ${r.pages} page(s) but no text in them (scanned pages are pictures; this tool does not do OCR).`), pages: r.pages };
  }
  const unreadable = r.unreadable ? `${r.unreadable} page(s) could not be read and are left empty.` : null;
  return textReading(r.text, maxChars, { pages: r.pages, cut: r.read < r.pages, notes: [unreadable] });
}

export interface TextOptions {
  maxChars: number;
  /** Only the first LIMITS octets were fetched. */
  cut: boolean;
  /** A generic type (application/octet-stream) that only its file name made text. */
  guessed: boolean;
  readers: ContentReaders;
}

export async function readText(kind: Kind, located: LocatedPart, bytes: Buffer, o: TextOptions): Promise<Reading> {
  if (o.guessed && !looksLikeText(bytes)) return nothing("Its file name says text, but its content is binary, so it is not returned.");
  if (kind === "message") return readMessage(located, bytes, o);
  const decoded = decodeText(mimePart(located, bytes));
  const cutNote = o.cut ? `Only its first ${megabytes(LIMITS.text)} were read.` : null;
  if (kind !== "html") return textReading(decoded, o.maxChars, { cut: o.cut, notes: [cutNote] });
  const html = await htmlToText(decoded, o.maxChars, o.readers);
  return textReading(html.text, o.maxChars, { cut: o.cut, notes: [html.note, cutNote] });
}

/** An attached message as get_email shows one inline: its From, Date, Subject, To, Cc, then its body. */
async function readMessage(located: LocatedPart, bytes: Buffer, o: TextOptions): Promise<Reading> {
  const parsed = await parseMessage(bytes, located.info.part);
  const root: MimePart = { ...mimePart(located, Buffer.alloc(0)), type: "message/rfc822", message: parsed };
  const body = await readable(bodySegments({ ...parsed, headers: headerView(false), root }), o.maxChars, o.readers);
  const cutNote = o.cut ? `The attached message is larger than ${megabytes(LIMITS.message)}; only its first ${megabytes(LIMITS.message)} were read.` : null;
  const { attachments, omitted } = capAttachments(attachmentsOf(located.node.childNodes?.[0], o.cut ? null : parsed));
  const omittedNote = omitted ? `${omitted} more attachments of the attached message are not listed.` : null;
  return textReading(body.text, o.maxChars, { cut: o.cut, attachments, notes: [...body.notes, cutNote, omittedNote, parsed.tooDeep ? TOO_DEEP : null, parsed.tooMany ? TOO_MANY : null] });
}

/** The part as mime/ reads it: charset and format=flowed (RFC 3676) from its Content-Type parameters. */
function mimePart(located: LocatedPart, content: Buffer): MimePart {
  const p = located.node.parameters ?? {};
  return {
    part: located.info.part, type: located.node.type.toLowerCase(), charset: p.charset ?? null,
    flowed: p.format?.toLowerCase() === "flowed", delSp: p.delsp?.toLowerCase() === "yes",
    disposition: located.node.disposition ?? null, filename: located.info.filename, children: [], content, message: null,
  };
}
