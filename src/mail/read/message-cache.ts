// Small messages get_email has read, kept per connection: a message's content is fixed for its UID
// while the folder's UIDVALIDITY holds (RFC 9051 §2.3.1.1, the same rule as ./summary-cache.ts), so
// reading it again (the next piece of a long body, the same message later in a conversation) needs
// from the server only its current flags, `UID FETCH <uid> (UID FLAGS)`, a command under the same
// freshness rules (docs/freshness.md): a message expunged meanwhile is reported missing as before.
// What is kept is what the source yields before any argument applies (its body parts as text or
// HTML, threading headers, attachment list), so every offset, max_chars and format reads exactly
// as on a first read, without parsing the MIME again. It is bounded per connection
// (KEPT_MESSAGE_BYTES); the cache ends with its connection (a WeakMap on the client).
import type { ImapFlow } from "imapflow";
import type { AttachmentInfo } from "./attachment-list.ts";
import type { Invitation } from "../calendar/invitation.ts";
import type { Segment } from "../mime/readable-parts.ts";
import type { Address } from "./summary.ts";
import { detachedSummary, keyOf, type FixedSummary } from "./summary-cache.ts";

/** Bytes kept per connection (the body's characters at 2 bytes each), least recently read first out; a larger message is not kept. */
export const KEPT_MESSAGE_BYTES = 64 * 1024;

/** What a message's source yields, whatever part of the body is asked for (../read/message.ts). */
export interface MessageRead {
  inReplyTo: string | null;
  references: string[];
  replyTo: Address[];
  /** The readable body parts, HTML not yet converted. */
  segments: Segment[];
  /** Notes on what could not be read (too deep, too many parts). */
  notes: string[];
  /** A cap cut the text (a large message's text part). */
  cut: boolean;
  /** The capped attachment list (the server's BODYSTRUCTURE and our parse, as on the first read). */
  attachments: AttachmentInfo[];
  attachmentsOmitted: number;
  /** The invitation a text/calendar part carries (../calendar/invitation-part.ts), without this mailbox's answer. */
  invitation: Invitation | null;
}

export interface KeptMessage {
  fixed: FixedSummary;
  read: MessageRead;
}

interface Kept {
  message: KeptMessage;
  bytes: number;
}

const caches = new WeakMap<ImapFlow, { entries: Map<string, Kept>; bytes: number }>();

/** The kept message `uid` of `path` (at `uidValidity`), now the most recently read; undefined when not kept. */
export function keptMessage(client: ImapFlow, path: string, uidValidity: string, uid: number): KeptMessage | undefined {
  const cache = caches.get(client);
  const key = keyOf(path, uidValidity, uid);
  const found = cache?.entries.get(key);
  if (!found || !cache) return undefined;
  cache.entries.delete(key);
  cache.entries.set(key, found);
  return found.message;
}

/** Keeps what a message yields; one over KEPT_MESSAGE_BYTES is not kept. Older ones go to make room. */
export function keepMessage(client: ImapFlow, path: string, uidValidity: string, m: KeptMessage): void {
  const { segments, ...rest } = m.read;
  const bytes = 2 * (segments.reduce((n, s) => n + (s.kind === "text" ? s.text.length : s.html.length), 0) + JSON.stringify(rest).length);
  if (bytes > KEPT_MESSAGE_BYTES) return;
  let cache = caches.get(client);
  if (!cache) caches.set(client, (cache = { entries: new Map(), bytes: 0 }));
  const key = keyOf(path, uidValidity, m.fixed.uid);
  forget(cache, key);
  while (cache.bytes + bytes > KEPT_MESSAGE_BYTES) forget(cache, cache.entries.keys().next().value!);
  // Header values, file names, an attached message's header lines may be views of a longer string
  // (imapflow's response line, a header block: see ./summary-cache.ts detach) that would stay alive
  // unaccounted; the JSON text, parsed, is an exact copy made of strings of their own.
  // Frozen: a result shares these arrays and objects, and nothing may change what later reads return.
  const read = frozen(JSON.parse(JSON.stringify(m.read)) as MessageRead);
  cache.entries.set(key, { message: frozen({ fixed: detachedSummary(m.fixed), read }), bytes });
  cache.bytes += bytes;
}

function forget(cache: { entries: Map<string, Kept>; bytes: number }, key: string): void {
  const old = cache.entries.get(key);
  if (!old) return;
  cache.entries.delete(key);
  cache.bytes -= old.bytes;
}

/** `value` and everything in it frozen (plain JSON-like data). */
function frozen<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}
