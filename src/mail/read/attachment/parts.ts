// The parts of a message as get_attachment addresses them: RFC 9051 §6.4.5 part numbers from the
// server's BODYSTRUCTURE, the same numbers get_email lists under `attachments`, plus the message's
// other leaves (its text and HTML bodies, inline images) and the parts inside attached messages.
import type { MessageStructureObject } from "imapflow";
import { attachmentsOf, estimateDecoded, type AttachmentInfo } from "../attachment-list.ts";
import { renumber } from "../part-numbers.ts";
import { isMessageType } from "../../mime/tree.ts";
import { cleanLine } from "../../content/sanitize.ts";
import { partFilename } from "../summary.ts";

export interface LocatedPart {
  /** The BODYSTRUCTURE node, with RFC 9051 part numbers. */
  node: MessageStructureObject;
  /** part, filename, content_type and (estimated) decoded size, as get_email lists them. */
  info: AttachmentInfo;
  /** The FETCH section: the part number, or TEXT for the body of a message that is not multipart. */
  section: string;
  /** Listed by get_email as an attachment (the rest are body parts). */
  attachment: boolean;
}

/** Every part that has content (leaves and attached messages; not multipart containers), in MIME order. */
export function partsOf(root: MessageStructureObject | undefined): LocatedPart[] {
  if (!root) return [];
  const listed = new Map(attachmentsOf(root, null).map((a) => [a.part, a]));
  const out: LocatedPart[] = [];
  const seen = new Set<string>();
  const walk = (node: MessageStructureObject) => {
    const part = node.part;
    if (part && !node.type.startsWith("multipart/") && !seen.has(part)) {
      seen.add(part);
      const info = listed.get(part) ?? describe(node, part);
      // RFC 3501 §6.4.5: a message that is not multipart has its body as part 1; TEXT names the same
      // octets and is what servers that mishandle [1] of a single-part message still answer.
      out.push({ node, info, section: !root.type.startsWith("multipart/") && part === "1" ? "TEXT" : part, attachment: listed.has(part) });
    }
    node.childNodes?.forEach(walk);
  };
  walk(renumber(root, "", true));
  return out;
}

function describe(node: MessageStructureObject, part: string): AttachmentInfo {
  const filename = partFilename(node);
  return { part, filename: filename ? cleanLine(filename) || null : null, content_type: cleanLine(node.type), size: estimateDecoded(node) };
}

/** The part list for an error message: number, type, name (names are the sender's: fence them). */
export function partLines(parts: LocatedPart[]): string[] {
  return parts.map(({ info, attachment, node }) => {
    const what = [info.content_type, info.filename, `about ${info.size} bytes`].filter(Boolean).join(", ");
    const role = attachment ? (isMessageType(node.type) ? "attached message" : "attachment") : "part of the body";
    return `part ${info.part}: ${what} (${role})`;
  });
}
