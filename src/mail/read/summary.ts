// A message summary from IMAP metadata only (ENVELOPE, FLAGS, RFC822.SIZE, BODYSTRUCTURE, and the
// few header fields of SUMMARY_HEADERS in the same FETCH): never the body, so listing 100 messages
// costs a few kilobytes whatever their size (docs/design.md §7).
import type { FetchMessageObject, FetchQueryObject, MessageStructureObject } from "imapflow";
import { displayAddresses, type Address } from "./display-addresses.ts";
import { cleanLine } from "../content/sanitize.ts";
import { decodeMutf7 } from "../imap/mutf7.ts";
import { headerFields } from "./sender/header-fields.ts";
import { senderCheck, type SenderCheck } from "./sender/sender-check.ts";
import { unsubscribeOffer, type UnsubscribeOffer } from "./sender/unsubscribe-header.ts";

export type { Address, SenderCheck, UnsubscribeOffer };

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
  /** Gmail labels (X-GM-LABELS) where the server has them, else the message's IMAP keywords. */
  labels: string[];
  /** What the mailbox's own provider found on receipt (./sender/sender-check.ts); null when nothing trusted says. */
  sender_check: SenderCheck | null;
  /** How to leave the list the message came from (./sender/unsubscribe-header.ts); null when it offers none. */
  unsubscribe: UnsubscribeOffer | null;
}

/** The parts of a summary that cannot change while the folder's UIDVALIDITY holds (cached by ./summary-cache.ts). */
export type FixedSummary = Omit<Summary, "seen" | "flagged" | "labels">;

/**
 * The header fields a summary reads, as `BODY.PEEK[HEADER.FIELDS (…)]` in the summary FETCH itself
 * (no round trip more). A query that needs more fields lists these too (`[...SUMMARY_HEADERS, …]`).
 */
export const SUMMARY_HEADERS = ["authentication-results", "list-unsubscribe", "list-unsubscribe-post"];

/**
 * What a summary needs; INTERNALDATE is a few bytes and stands in when the Date header is bad.
 * `labels` asks for X-GM-LABELS, which imapflow sends only to a server that has them (Gmail).
 */
export const SUMMARY_QUERY: FetchQueryObject = {
  uid: true, envelope: true, flags: true, size: true, bodyStructure: true, internalDate: true, labels: true,
  headers: SUMMARY_HEADERS,
};

/**
 * SUMMARY_QUERY's items as a FETCH writes them, for a FETCH imapflow does not send (a connection's
 * first turn: ../imap/early-prefetch.ts), to a server without X-GM-LABELS.
 */
export const SUMMARY_ITEMS = `(UID FLAGS ENVELOPE BODYSTRUCTURE INTERNALDATE RFC822.SIZE BODY.PEEK[HEADER.FIELDS (${SUMMARY_HEADERS.map((h) => h.toUpperCase()).join(" ")})])`;

/** What can change for a message the connection has summarized before (./summary-cache.ts). */
export const FLAGS_QUERY: FetchQueryObject = { uid: true, flags: true, labels: true };

function isoDate(...candidates: Array<Date | string | undefined>): string | null {
  for (const c of candidates) {
    if (c === undefined) continue;
    const d = c instanceof Date ? c : new Date(c);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  return null;
}

/** `trusted`: the authserv-ids of the mailbox's provider (./sender/trust.ts); none, no sender_check. */
export function toSummary(msg: FetchMessageObject, folder: string, trusted: readonly string[] = []): Summary {
  return withFlags(fixedSummary(msg, folder, trusted), msg);
}

/** What never changes for this UID (envelope, date, structure, size): ./summary-cache.ts keeps it. */
export function fixedSummary(msg: FetchMessageObject, folder: string, trusted: readonly string[] = []): FixedSummary {
  const env = msg.envelope ?? {};
  const from = displayAddresses(env.from)[0] ?? null;
  return {
    uid: msg.uid,
    folder,
    message_id: env.messageId ? cleanLine(env.messageId) : null,
    subject: cleanLine(env.subject ?? ""),
    from,
    to: displayAddresses(env.to),
    cc: displayAddresses(env.cc),
    date: isoDate(env.date, msg.internalDate),
    // No structure: it was too large or too deep to read (../imap/structure-guard.ts), which only
    // messages of very many parts are: they have attachments.
    has_attachments: msg.bodyStructure ? attachmentNodes(msg.bodyStructure).length > 0 : true,
    size: msg.size ?? 0,
    sender_check: senderCheck(msg.headers, from?.address ?? null, trusted),
    unsubscribe: unsubscribeOf(msg.headers),
  };
}

function unsubscribeOf(headers: Buffer | undefined): UnsubscribeOffer | null {
  const offer = unsubscribeOffer(headerFields(headers, "list-unsubscribe"), headerFields(headers, "list-unsubscribe-post"));
  return offer && { one_click: offer.one_click, https: offer.https && cleanLine(offer.https), mailto: offer.mailto && cleanLine(offer.mailto) };
}

/** A fixed summary with the flags and labels `msg` (a FETCH answer with FLAGS) carries now. */
export function withFlags(fixed: FixedSummary, msg: Pick<FetchMessageObject, "flags" | "labels">): Summary {
  const flags = msg.flags ?? new Set<string>();
  return {
    uid: fixed.uid,
    folder: fixed.folder,
    message_id: fixed.message_id,
    subject: fixed.subject,
    from: fixed.from,
    to: fixed.to,
    cc: fixed.cc,
    date: fixed.date,
    seen: flags.has("\\Seen"),
    flagged: flags.has("\\Flagged"),
    has_attachments: fixed.has_attachments,
    size: fixed.size,
    labels: labelsOf(msg),
    sender_check: fixed.sender_check,
    unsubscribe: fixed.unsubscribe,
  };
}

/**
 * Gmail's labels (modified UTF-7, RFC 3501 §5.1.3, decoded) when the server sent them; else the
 * keywords among the flags (RFC 3501 §2.3.2: flags without a backslash). Set by the mailbox's owner
 * and their mail apps, but cleaned like any line that reaches a model.
 */
export function labelsOf(msg: Pick<FetchMessageObject, "labels" | "flags">): string[] {
  const raw = msg.labels ? [...msg.labels].map(decodeMutf7) : [...(msg.flags ?? [])].filter((f) => !f.startsWith("\\"));
  return raw.map((l) => cleanLine(l)).filter(Boolean).sort();
}

/** The file name a part declares, in Content-Disposition or (older mailers) Content-Type. */
export function partFilename(node: MessageStructureObject): string | null {
  return node.dispositionParameters?.filename ?? node.parameters?.name ?? null;
}

// An attachment: declared as one, or a named non-text leaf, or an attached message. Inline text
// parts are the body, not attachments.
function isAttachment(node: MessageStructureObject): boolean {
  const message = node.type === "message/rfc822" || node.type === "message/global";
  if (node.childNodes?.length && !message) return false;
  if (node.disposition?.toLowerCase() === "attachment") return true;
  if (message) return true;
  return !node.type.startsWith("text/") && partFilename(node) !== null;
}

/** Attachment parts in MIME order; attached messages count once (their insides are not walked). */
export function attachmentNodes(root: MessageStructureObject | undefined): MessageStructureObject[] {
  if (!root) return [];
  // A message whose whole body is one part (a forward sent as message/rfc822 at the top): imapflow
  // gives the root no number, but it is part 1 (RFC 9051 §6.4.5), and it is an attachment.
  if (!root.part && !root.type.startsWith("multipart/") && isAttachment(root)) return [{ ...root, part: "1" }];
  return walk(root);
}

function walk(node: MessageStructureObject): MessageStructureObject[] {
  if (isAttachment(node) && node.part) return [node];
  return (node.childNodes ?? []).flatMap(walk);
}
