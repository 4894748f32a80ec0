// What a summary says that never changes, kept per connection: a message's envelope, size, arrival
// date and structure are fixed for its UID while the folder's UIDVALIDITY holds (RFC 9051 §2.3.1.1,
// §2.3.3 on immutable message contents), so a page of messages this connection has summarized
// before needs only their flags from the server (`UID FETCH … (UID FLAGS)`, a few bytes each)
// instead of every ENVELOPE and BODYSTRUCTURE again: on the read mix the parsing of those was
// ~15% of the server's CPU (docs/performance.md). Flags and labels, which do change, are always
// fetched. The cache ends with its connection (a WeakMap on the client, as ../imap/top-uids.ts).
import type { ImapFlow } from "imapflow";
import type { Address, FixedSummary } from "./summary.ts";

export type { FixedSummary };

/**
 * Summaries kept per connection, least recently used first out: one page at the largest `limit`
 * (~1 KB each: ~100 KB at most, ~20 KB for the default page, per open connection).
 */
export const KEPT_PER_CONNECTION = 100;

const caches = new WeakMap<ImapFlow, Map<string, FixedSummary>>();

/** A message's key while its folder's UIDVALIDITY holds (also ./message-cache.ts). */
export const keyOf = (path: string, uidValidity: string, uid: number) => `${uid}\n${uidValidity}\n${path}`;

/** The selected folder's UIDVALIDITY as text (imapflow gives a BigInt), or null when it is unknown. */
export function validityOf(client: ImapFlow): string | null {
  const v = client.mailbox ? client.mailbox.uidValidity : undefined;
  return v === undefined || v === null ? null : String(v);
}

/** The fixed summary of `uid` in `path` (at `uidValidity`), refreshed as recently used; undefined when not kept. */
export function cachedSummary(client: ImapFlow, path: string, uidValidity: string, uid: number): FixedSummary | undefined {
  const cache = caches.get(client);
  const key = keyOf(path, uidValidity, uid);
  const found = cache?.get(key);
  if (found && cache) {
    cache.delete(key);
    cache.set(key, found);
  }
  return found;
}

/** The fixed summary of `uid` if kept, leaving its place in the LRU order alone (a look that uses nothing). */
export function keptSummary(client: ImapFlow, path: string, uidValidity: string, uid: number): FixedSummary | undefined {
  return caches.get(client)?.get(keyOf(path, uidValidity, uid));
}

/**
 * A copy of `s` that holds only its own characters. A string cut out of a longer one (imapflow's
 * tokenizer slices each value out of the whole response line) is a view that keeps that whole line
 * alive in JavaScriptCore; parsing its JSON text builds a new string (exact for any string).
 */
function detach(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

const detachAddress = (a: Address): Address => ({ name: a.name === null ? null : detach(a.name), address: a.address === null ? null : detach(a.address) });

/** A copy of `summary` whose strings are all its own (see detach). */
export function detachedSummary(summary: FixedSummary): FixedSummary {
  return {
    uid: summary.uid, folder: summary.folder, message_id: summary.message_id === null ? null : detach(summary.message_id),
    subject: detach(summary.subject), from: summary.from && detachAddress(summary.from), to: summary.to.map(detachAddress),
    cc: summary.cc.map(detachAddress), date: summary.date, has_attachments: summary.has_attachments, size: summary.size,
    sender_check: summary.sender_check && { ...summary.sender_check, from_domain: summary.sender_check.from_domain && detach(summary.sender_check.from_domain) },
    unsubscribe: summary.unsubscribe && { ...summary.unsubscribe, https: summary.unsubscribe.https && detach(summary.unsubscribe.https), mailto: summary.unsubscribe.mailto && detach(summary.unsubscribe.mailto) },
  };
}

export function rememberSummary(client: ImapFlow, path: string, uidValidity: string, summary: FixedSummary): void {
  let cache = caches.get(client);
  if (!cache) caches.set(client, (cache = new Map()));
  const key = keyOf(path, uidValidity, summary.uid);
  const fixed = detachedSummary(summary);
  cache.delete(key);
  cache.set(key, fixed);
  if (cache.size > KEPT_PER_CONNECTION) cache.delete(cache.keys().next().value!);
}
