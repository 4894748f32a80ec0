// get_email's attachment list. Which parts are attachments, and their numbers, come from the
// server's BODYSTRUCTURE (the same rule gives a summary's has_attachments); decoded sizes come
// from our own parse of the message when we have it, else are estimated.
import type { MessageStructureObject } from "imapflow";
import type { MimePart, ParsedMessage } from "../mime/tree.ts";
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

export function attachmentsOf(root: MessageStructureObject | undefined, parsed: ParsedMessage | null): AttachmentInfo[] {
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

// An attached message rarely has a file name; mail clients show (and save) it as "<subject>.eml".
function messageFilename(node: MessageStructureObject): string | null {
  if (node.type !== "message/rfc822" && node.type !== "message/global") return null;
  const subject = cleanLine(node.envelope?.subject ?? "").replace(/[\\/]/g, "_").slice(0, 200);
  return `${subject || "message"}.eml`;
}

function index(part: MimePart, into: Map<string, MimePart>): void {
  // A multipart inside an attached message shares that message's number: keep the message part.
  if (part.part && !part.type.startsWith("multipart/")) into.set(part.part, part);
  part.children.forEach((c) => index(c, into));
  if (part.message) index(part.message.root, into);
}

export function estimateDecoded(node: MessageStructureObject): number {
  const size = node.size ?? 0;
  if (node.encoding?.toLowerCase() !== "base64") return size;
  return Math.floor((size * 57) / 78); // 57 bytes per 76-character line plus CRLF
}
