// A message summary from IMAP metadata only (ENVELOPE, FLAGS, RFC822.SIZE, BODYSTRUCTURE): never
// the body, so listing 100 messages costs a few kilobytes whatever their size (DESIGN §7).
import type { FetchMessageObject, FetchQueryObject, MessageAddressObject, MessageStructureObject } from "imapflow";
import { cleanLine } from "./sanitize.ts";

export interface Address {
  name: string | null;
  address: string;
}

export interface Summary {
  uid: number;
  folder: string;
  message_id: string | null;
  subject: string;
  from: Address | null;
  to: Address[];
  cc: Address[];
  date: string | null;
  seen: boolean;
  flagged: boolean;
  has_attachments: boolean;
  size: number;
}

/** What a summary needs; INTERNALDATE is a few bytes and stands in when the Date header is bad. */
export const SUMMARY_QUERY: FetchQueryObject = {
  uid: true, envelope: true, flags: true, size: true, bodyStructure: true, internalDate: true,
};

export function toAddress(a: MessageAddressObject): Address {
  const name = a.name ? cleanLine(a.name) : "";
  return { name: name || null, address: cleanLine(a.address ?? "") };
}

function toAddresses(list: MessageAddressObject[] | undefined): Address[] {
  return (list ?? []).filter((a) => a.address || a.name).map(toAddress);
}

function isoDate(...candidates: Array<Date | string | undefined>): string | null {
  for (const c of candidates) {
    if (c === undefined) continue;
    const d = c instanceof Date ? c : new Date(c);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  return null;
}

export function toSummary(msg: FetchMessageObject, folder: string): Summary {
  const env = msg.envelope ?? {};
  const flags = msg.flags ?? new Set<string>();
  const from = toAddresses(env.from)[0] ?? null;
  return {
    uid: msg.uid,
    folder,
    message_id: env.messageId ? cleanLine(env.messageId) : null,
    subject: cleanLine(env.subject ?? ""),
    from,
    to: toAddresses(env.to),
    cc: toAddresses(env.cc),
    date: isoDate(env.date, msg.internalDate),
    seen: flags.has("\\Seen"),
    flagged: flags.has("\\Flagged"),
    has_attachments: attachmentNodes(msg.bodyStructure).length > 0,
    size: msg.size ?? 0,
  };
}

/** The file name a part declares, in Content-Disposition or (older mailers) Content-Type. */
export function partFilename(node: MessageStructureObject): string | null {
  return node.dispositionParameters?.filename ?? node.parameters?.name ?? null;
}

// An attachment: declared as one, or a named non-text leaf, or an attached message. Inline text
// parts are the body, not attachments.
function isAttachment(node: MessageStructureObject): boolean {
  if (node.childNodes?.length && node.type !== "message/rfc822") return false;
  if (node.disposition?.toLowerCase() === "attachment") return true;
  if (node.type === "message/rfc822") return true;
  return !node.type.startsWith("text/") && partFilename(node) !== null;
}

/** Attachment parts in MIME order; attached messages count once (their insides are not walked). */
export function attachmentNodes(root: MessageStructureObject | undefined): MessageStructureObject[] {
  if (!root) return [];
  if (isAttachment(root) && root.part) return [root];
  return (root.childNodes ?? []).flatMap(attachmentNodes);
}
