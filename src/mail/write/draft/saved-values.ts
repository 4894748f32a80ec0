// A saved draft's values, the starting point of update_draft (fields left out keep them): its
// recipients (Bcc included: our stored copies keep it), subject, threading ids, text and HTML
// parts, and its attachments as they are, attached messages included.
import type { Attachment } from "../../compose/message.ts";
import type { BodyParts } from "../../compose/quote.ts";
import type { Mailbox } from "../../compose/recipients.ts";
import type { Address } from "../../read/display-addresses.ts";
import { decodeText } from "../../mime/readable-parts.ts";
import { isMessageType, parseMessage, type MimePart } from "../../mime/tree.ts";
import type { DraftBase } from "../assemble.ts";

export async function draftBase(raw: Buffer): Promise<DraftBase> {
  const { headers: h, root } = await parseMessage(raw);
  const mailboxes = (list: Address[]): Mailbox[] => list.flatMap((a) => (a.address ? [{ name: a.name, address: a.address }] : []));
  const body: BodyParts = {};
  const attachments: Attachment[] = [];
  collect(root, body, attachments);
  return {
    recipients: { to: mailboxes(h.addresses("to")), cc: mailboxes(h.addresses("cc")), bcc: mailboxes(h.addresses("bcc")) },
    subject: h.text("subject") ?? "",
    body,
    attachments,
    threading: { inReplyTo: h.inReplyTo() ?? undefined, references: h.references() },
    from: h.addresses("from")[0]?.address ?? null,
  };
}

/** The first inline text and HTML parts are the body; every other part is an attachment, kept as is. */
function collect(part: MimePart, body: BodyParts, attachments: Attachment[]): void {
  if (part.type.startsWith("multipart/")) return part.children.forEach((c) => collect(c, body, attachments));
  const inline = part.disposition !== "attachment";
  if (inline && part.type === "text/plain" && body.text === undefined) body.text = decodeText(part);
  else if (inline && part.type === "text/html" && body.html === undefined) body.html = decodeText(part);
  else if (isMessageType(part.type)) attachments.push({ filename: part.filename ?? `part-${part.part}.eml`, content: part.content, contentType: part.type });
  else if (part.content.length || part.filename) attachments.push({ filename: part.filename ?? `part-${part.part}.bin`, content: part.content, contentType: part.type });
}
