// get_email's attachment list. Which parts are attachments, and their numbers, come from the
// server's BODYSTRUCTURE (the same rule gives a summary's has_attachments); decoded sizes come
// from our own parse of the message when we have it, else are estimated. A message whose
// BODYSTRUCTURE could not be read (too large or too deep: ../imap/structure-guard.ts) gets its list
// from our own parse alone, by the same rule. Either way the list is capped (capAttachments).
import type { MessageStructureObject } from "imapflow";
import { isMessageType, type MimePart, type ParsedMessage } from "../mime/tree.ts";
import { cleanLine } from "../content/sanitize.ts";
import { attachmentNodes, partFilename } from "./summary.ts";

export interface AttachmentInfo {
  /** IMAP body part number, e.g. "2" or "1.2". */
  part: string;
  filename: string | null;
  content_type: string;
  /** Decoded bytes. */
  size: number;
}

/** The attachment list from the server's structure, or from our own parse when there is none. */
export function attachmentsOf(root: MessageStructureObject | undefined, parsed: ParsedMessage | null): AttachmentInfo[] {
  if (!root && parsed) return attachmentsFromMime(parsed.root);
  return attachmentsFromStructure(root, parsed);
}

function attachmentsFromStructure(root: MessageStructureObject | undefined, parsed: ParsedMessage | null): AttachmentInfo[] {
  const byPart = new Map<string, MimePart>();
  if (parsed) index(parsed.root, byPart);
  return attachmentNodes(root).map((node) => {
    const part = node.part!;
    const filename = partFilename(node) ?? byPart.get(part)?.filename ?? messageFilename(node);
    return {
      part,
      filename: filename ? cleanLine(filename) || null : null,
      content_type: cleanLine(node.type), // written by the sender like the filename
      size: byPart.get(part)?.content.length ?? estimateDecoded(node),
    };
  });
}

/** An attached message rarely has a file name; mail clients show (and save) it as "<subject>.eml". */
function emlName(subject: string | null | undefined): string {
  return `${cleanLine(subject ?? "").replace(/[\\/]/g, "_").slice(0, 200) || "message"}.eml`;
}

function messageFilename(node: MessageStructureObject): string | null {
  return isMessageType(node.type) ? emlName(node.envelope?.subject) : null;
}

function index(part: MimePart, into: Map<string, MimePart>): void {
  // A multipart inside an attached message shares that message's number: keep the message part.
  if (part.part && !part.type.startsWith("multipart/")) into.set(part.part, part);
  part.children.forEach((c) => index(c, into));
  if (part.message) index(part.message.root, into);
}

/** The rule of ./summary.ts (isAttachment) on our own parse: declared, named non-text, or a message. */
function attachmentsFromMime(root: MimePart): AttachmentInfo[] {
  const out: AttachmentInfo[] = [];
  const walk = (part: MimePart) => {
    const message = isMessageType(part.type);
    if (part.type.startsWith("multipart/")) return part.children.forEach(walk);
    if (!message && part.disposition !== "attachment" && (part.type.startsWith("text/") || !part.filename)) return;
    const filename = part.filename ?? (message ? emlName(part.message?.headers.text("subject")) : null);
    out.push({ part: part.part, filename: filename ? cleanLine(filename) || null : null, content_type: cleanLine(part.type), size: part.content.length });
  };
  walk(root);
  return out;
}

/**
 * At most MAX_LISTED attachments and about MAX_LIST_BYTES of them as JSON (docs/decisions.md "A
 * hostile mail server": a message with 10,000 parts made a 1.4 MB answer): the list is shown twice
 * in an answer (structured and as text), which stays well under 256 KB with the default max_chars.
 * `omitted` says how many were left out.
 */
export const MAX_LISTED = 1000;
export const MAX_LIST_BYTES = 96 * 1024;

export function capAttachments(all: AttachmentInfo[]): { attachments: AttachmentInfo[]; omitted: number } {
  let bytes = 0;
  let n = 0;
  for (; n < all.length && n < MAX_LISTED; n++) {
    bytes += JSON.stringify(all[n]).length + 1;
    if (bytes > MAX_LIST_BYTES) break;
  }
  return { attachments: all.slice(0, n), omitted: all.length - n };
}

export function estimateDecoded(node: MessageStructureObject): number {
  const size = node.size ?? 0;
  if (node.encoding?.toLowerCase() !== "base64") return size;
  return Math.floor((size * 57) / 78); // 57 bytes per 76-character line plus CRLF
}
