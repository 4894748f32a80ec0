// get_attachment for a message whose BODYSTRUCTURE could not be read (too large or nested too deep:
// ../../imap/structure-guard.ts): the message itself, up to 4 MB, is fetched and its parts numbered
// by our own MIME reading (../../mime/tree.ts), which numbers them as IMAP does (RFC 9051 §6.4.5).
// A part found there comes with its content already decoded; the readers take it as it is.
import type { ImapFlow, MessageStructureObject } from "imapflow";
import { fetchByUid } from "../../imap/mailbox.ts";
import { MailError } from "../../errors.ts";
import { cleanLine } from "../../content/sanitize.ts";
import { parseMessage, type MimePart } from "../../mime/tree.ts";
import { attachmentsOf, type AttachmentInfo } from "../attachment-list.ts";
import { WHOLE_MESSAGE_LIMIT } from "../message.ts";
import type { LocatedPart } from "./parts.ts";

export interface SourcePart {
  located: LocatedPart;
  /** The part's decoded content. */
  content: Buffer;
}

/** Every part with content, in MIME order, from the message's own bytes; a MailError past 4 MB. */
export async function partsFromSource(client: ImapFlow, uid: number, folder: string): Promise<SourcePart[]> {
  const msg = await fetchByUid(client, uid, { uid: true, source: { maxLength: WHOLE_MESSAGE_LIMIT } });
  const source = msg?.source;
  if (!source) throw new MailError("not_found", `No message with uid ${uid} in "${folder}" (it may have been moved or deleted).`);
  if (source.length >= WHOLE_MESSAGE_LIMIT) {
    throw new MailError("protocol", "This message's structure is too large or nested too deeply to read, and the message is over 4 MB, " +
      "so its parts cannot be fetched one by one. Open it in a mail program.");
  }
  const parsed = await parseMessage(source);
  // What get_email lists for a part (an attached message's name, say) is what get_attachment answers with.
  const listed = new Map(attachmentsOf(undefined, parsed).map((a) => [a.part, a]));
  const out: SourcePart[] = [];
  const walk = (part: MimePart) => {
    if (!part.type.startsWith("multipart/")) out.push({ located: locate(part, listed.get(part.part)), content: part.content });
    part.children.forEach(walk);
    if (part.message) walk(part.message.root);
  };
  walk(parsed.root);
  return out;
}

/** A part of our parse in the shape of a BODYSTRUCTURE node, with content already decoded (binary). */
function locate(part: MimePart, listed: AttachmentInfo | undefined): LocatedPart {
  const parameters: Record<string, string> = {};
  if (part.charset) parameters.charset = part.charset;
  if (part.flowed) parameters.format = "flowed";
  if (part.delSp) parameters.delsp = "yes";
  const node: MessageStructureObject = {
    part: part.part, type: part.type, parameters, encoding: "binary", size: part.content.length,
    ...(part.disposition ? { disposition: part.disposition } : {}),
    ...(part.filename ? { dispositionParameters: { filename: part.filename } } : {}),
  };
  const filename = part.filename ? cleanLine(part.filename) || null : null;
  return {
    node, attachment: listed !== undefined, section: part.part,
    info: listed ?? { part: part.part, filename, content_type: cleanLine(part.type), size: part.content.length },
  };
}
