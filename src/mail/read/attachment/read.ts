// get_attachment: one part of a message, as text, as an image, or described with the reason its
// content is not returned. The IMAP work (./fetch.ts) happens under the mailbox lock; decoding,
// HTML conversion and PDF extraction (helper processes with budgets) happen after it is released.
import type { ImapFlow } from "imapflow";
import type { AttachmentInfo } from "../attachment-list.ts";
import { decodeTransfer } from "../../mime/tree.ts";
import type { ContentReaders } from "../../content/readers.ts";
import { fetchPart, type PartQuery } from "./fetch.ts";
import { guessedFromName, kindOf, type Kind } from "./kinds.ts";
import { encodingOf, fetchCap, LIMITS, megabytes, WHOLE } from "./limits.ts";
import { readDocumentPart } from "./document.ts";
import { nothing, readImage, readPdf, readText, type Reading } from "./readers.ts";

export interface AttachmentQuery extends PartQuery {
  maxChars: number;
}

/** What kind of content the part was read as (HTML counts as text; every document format as document). */
export type PublicKind = Exclude<Kind, "html" | "document-text">;

export interface AttachmentContent extends AttachmentInfo, Reading {
  folder: string;
  uid: number;
  kind: PublicKind;
}

export async function getAttachment(client: ImapFlow, q: AttachmentQuery, readers: ContentReaders): Promise<AttachmentContent> {
  const a = await readPart(client, q, readers);
  // `format` names what was read; a reader that does not set its own format gets its kind's.
  return { ...a, format: a.content === "none" ? null : (a.format ?? FORMAT_OF_KIND[a.kind]) };
}

const FORMAT_OF_KIND: Record<PublicKind, string> = { text: "text", message: "message", pdf: "pdf", image: "image", document: "document", other: "other" };

async function readPart(client: ImapFlow, q: AttachmentQuery, readers: ContentReaders): Promise<AttachmentContent> {
  const fetched = await fetchPart(client, q, (p) => fetchCap(kindOf(p.node.type, p.info.filename), p.node));
  const { located, raw, cut } = fetched;
  const kind = kindOf(located.node.type, located.info.filename);
  const head = { folder: fetched.folder, uid: q.uid, ...located.info, kind: publicKind(kind) };
  if (!raw) return { ...head, ...nothing(notFetched(kind, located.info.size)) };
  const bytes = decodeTransfer(raw, encodingOf(located.node));
  const size = cut ? Math.max(located.info.size, bytes.length) : bytes.length;
  const whole = { ...head, size };
  if (WHOLE.has(kind) && (cut || bytes.length > LIMITS[kind as "pdf" | "image" | "document"])) {
    return { ...whole, ...nothing(tooLarge(kind, cut ? null : size)) };
  }
  if (kind === "image") return { ...whole, ...readImage(bytes, located.info.content_type) };
  if (kind === "pdf") return { ...whole, ...(await readPdf(bytes, q.maxChars, readers)) };
  const guessed = guessedFromName(located.node.type);
  if (kind === "document" || kind === "document-text") {
    return { ...whole, ...(await readDocumentPart(located, bytes, { cut, guessed, maxChars: q.maxChars, readers })) };
  }
  if (kind === "html") return { ...whole, ...(await readText(kind, located, bytes, { cut, guessed, maxChars: q.maxChars, readers })), format: "html" };
  return { ...whole, ...(await readText(kind, located, bytes, { cut, guessed, maxChars: q.maxChars, readers })) };
}

function publicKind(kind: Kind): PublicKind {
  return kind === "html" ? "text" : kind === "document-text" ? "document" : kind;
}

function notFetched(kind: Kind, size: number): string {
  if (WHOLE.has(kind)) return tooLarge(kind, size);
  return "This tool returns the text of text parts (plain text, HTML, JSON, XML, attached messages), of documents " +
    "(Word, Excel, PowerPoint, OpenDocument, RTF, CSV, calendars, contact cards) and of PDFs, and PNG, JPEG, GIF and WebP images; " +
    "this part is none of these (see its content type), so its content is not returned. Open it in a mail program.";
}

/** `size` null: only the cap was read (the server's size was wrong), so the real size is unknown. */
function tooLarge(kind: Kind, size: number | null): string {
  const what = kind === "pdf" ? "PDF" : kind === "document" ? "document" : "image";
  return `The ${what} is ${size === null ? "" : `${megabytes(size)}, `}more than the ${megabytes(LIMITS[kind as "pdf" | "image" | "document"])} this tool reads, so its content is not returned. Open it in a mail program.`;
}
