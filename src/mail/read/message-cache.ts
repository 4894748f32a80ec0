// Small messages get_email has read, kept per connection: a message's content is fixed for its UID
// while the folder's UIDVALIDITY holds (RFC 9051 §2.3.1.1, the same rule as ./summary-cache.ts), so
// reading it again (the next piece of a long body, the same message later in a conversation) needs
// from the server only its current flags, `UID FETCH <uid> (UID FLAGS)`, a command under the same
// freshness rules (docs/freshness.md): a message expunged meanwhile is reported missing as before.
// The text is then rendered again from the kept source, so every argument (offset, max_chars,
// format) reads exactly as on a first read. What is kept is bounded per connection
// (KEPT_MESSAGE_BYTES); the cache ends with its connection (a WeakMap on the client).
import type { ImapFlow } from "imapflow";
import type { AttachmentInfo } from "./attachment-list.ts";
import { detachedSummary, type FixedSummary } from "./summary-cache.ts";

/** Source bytes kept per connection, least recently read first out; a larger message is not kept. */
export const KEPT_MESSAGE_BYTES = 64 * 1024;

export interface KeptMessage {
  fixed: FixedSummary;
  /** The whole message as the server sent it (a copy: never a view of imapflow's buffers). */
  source: Buffer;
  /** The capped attachment list (from the server's BODYSTRUCTURE and our parse, as on the first read). */
  attachments: AttachmentInfo[];
  attachmentsOmitted: number;
}

interface Kept {
  message: KeptMessage;
  bytes: number;
}

const caches = new WeakMap<ImapFlow, { entries: Map<string, Kept>; bytes: number }>();

const keyOf = (path: string, uidValidity: string, uid: number) => `${uid}\n${uidValidity}\n${path}`;

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

/** Keeps a message read whole; one over KEPT_MESSAGE_BYTES is not kept. Older ones go to make room. */
export function keepMessage(client: ImapFlow, path: string, uidValidity: string, m: KeptMessage): void {
  // The list's strings may be views of imapflow's response line (see ./summary-cache.ts detach):
  // its JSON text, parsed, is an exact copy of its own.
  const attachments = JSON.parse(JSON.stringify(m.attachments)) as AttachmentInfo[];
  const bytes = m.source.length + JSON.stringify(attachments).length * 2;
  if (bytes > KEPT_MESSAGE_BYTES) return;
  let cache = caches.get(client);
  if (!cache) caches.set(client, (cache = { entries: new Map(), bytes: 0 }));
  const key = keyOf(path, uidValidity, m.fixed.uid);
  forget(cache, key);
  while (cache.bytes + bytes > KEPT_MESSAGE_BYTES) forget(cache, cache.entries.keys().next().value!);
  const message = { fixed: detachedSummary(m.fixed), source: Buffer.from(m.source), attachments, attachmentsOmitted: m.attachmentsOmitted };
  cache.entries.set(key, { message, bytes });
  cache.bytes += bytes;
}

function forget(cache: { entries: Map<string, Kept>; bytes: number }, key: string): void {
  const old = cache.entries.get(key);
  if (!old) return;
  cache.entries.delete(key);
  cache.bytes -= old.bytes;
}
