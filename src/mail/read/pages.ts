// Pages of summaries, newest (highest UID) first, shared by get_recent_emails and search_emails;
// every cost is bounded by the page's `limit`, not by the folder size (docs/design.md §7).
import type { FetchMessageObject, ImapFlow, MailboxObject, SearchObject } from "imapflow";
import { MailError } from "../errors.ts";
import { fetchOwn } from "../imap/mailbox.ts";
import { parseSet, rangesOf, toSet, topBelow, type Range } from "../imap/uid-set.ts";
import { cachedSummary, rememberSummary, validityOf } from "./summary-cache.ts";
import { observeInbox, trustedAuthservIds } from "./sender/trust.ts";
import { FLAGS_QUERY, fixedSummary, SUMMARY_QUERY, withFlags, type FixedSummary, type Summary } from "./summary.ts";

export interface Page {
  folder: string;
  emails: Summary[];
  next_before_uid: number | null;
}

/**
 * Summaries for a sequence range or a UID list, newest (highest UID) first, at most `limit`:
 * answers the server pushes for other messages mid-FETCH never make a page longer or uid-less.
 * When this connection keeps every message of the page from an earlier one (./summary-cache.ts:
 * the UIDs listed, or `expected`, those a UID range is known to hold), only their flags are
 * fetched; otherwise every message whole, as before: never a round trip more than that.
 */
export async function summaries(
  client: ImapFlow, folder: string, range: string | number[], limit: number, uidRange = false, expected?: number[],
): Promise<Summary[]> {
  if (Array.isArray(range) && range.length === 0) return [];
  const byUid = Array.isArray(range) || uidRange;
  const set = Array.isArray(range) ? toSet(range) : range;
  const wanted = Array.isArray(range) ? new Set(range) : undefined;
  const validity = validityOf(client);
  const uids = Array.isArray(range) ? range : byUid ? expected : undefined;
  const kept = validity !== null && uids?.length ? keptSummaries(client, folder, validity, uids) : null;
  const page = kept ? await flagsOnly(client, folder, validity!, set, kept, wanted) : await whole(client, folder, validity, set, byUid, wanted);
  return page.sort((a, b) => b.uid - a.uid).slice(0, limit);
}

/** The kept fixed summaries of every one of `uids`, looked up once each; null when any is not kept. */
function keptSummaries(client: ImapFlow, folder: string, validity: string, uids: readonly number[]): Map<number, FixedSummary> | null {
  const kept = new Map<number, FixedSummary>();
  for (const uid of uids) {
    const fixed = cachedSummary(client, folder, validity, uid);
    if (!fixed) return null;
    kept.set(uid, fixed);
  }
  return kept;
}

/** Every summary item fetched (a first listing); the fixed parts kept for the next one. */
async function whole(client: ImapFlow, folder: string, validity: string | null, set: string, byUid: boolean, wanted?: Set<number>): Promise<Summary[]> {
  return summariesOf(client, folder, validity, await fetchOwn(client, set, SUMMARY_QUERY, byUid, wanted));
}

/** Summaries of messages fetched with SUMMARY_QUERY's items (by this call or by its connection's start). */
export function summariesOf(client: ImapFlow, folder: string, validity: string | null, msgs: FetchMessageObject[]): Summary[] {
  observeInbox(client, folder, msgs.map((m) => m.headers));
  const trusted = trustedAuthservIds(client);
  return msgs.map((m) => {
    const fixed = fixedSummary(m, folder, trusted);
    if (validity !== null) rememberSummary(client, folder, validity, fixed);
    return withFlags(fixed, m);
  });
}

/**
 * Flags (and labels) of the set, with the kept fixed parts. A message the server adds to a UID range
 * meanwhile (new mail above the known top) is fetched whole: a round trip more, only then.
 */
async function flagsOnly(client: ImapFlow, folder: string, validity: string, set: string, kept: ReadonlyMap<number, FixedSummary>,
  wanted?: Set<number>): Promise<Summary[]> {
  const current = await fetchOwn(client, set, FLAGS_QUERY, true, wanted);
  const missing = current.map((m) => m.uid).filter((uid) => !kept.has(uid) && !cachedSummary(client, folder, validity, uid));
  const fetched = missing.length ? await whole(client, folder, validity, toSet(missing), true, new Set(missing)) : [];
  const fresh = new Map(fetched.map((s) => [s.uid, s]));
  return current.flatMap((m) => {
    const fixed = fresh.get(m.uid) ?? kept.get(m.uid) ?? cachedSummary(client, folder, validity, m.uid);
    return fixed ? [withFlags(fixed, m)] : []; // expunged between the two commands
  });
}

/**
 * UIDs matching `query` as ranges. ESEARCH RETURN (ALL) keeps the answer compact for big folders;
 * servers without ESEARCH answer with a plain list.
 */
export async function searchRanges(client: ImapFlow, query: SearchObject): Promise<Range[]> {
  const found = await client.search(query, { uid: true, returnOptions: ["ALL"] });
  if (!found) throw new MailError("protocol", "The mail server refused the search. Try simpler criteria.");
  if (Array.isArray(found)) return rangesOf(found);
  return parseSet(found.all ?? "");
}

/** One page (highest first) out of matching UID ranges. */
export async function uidPage(client: ImapFlow, box: MailboxObject, ranges: Range[], q: { limit: number; beforeUid: number | null }): Promise<Page> {
  const page = topBelow(ranges, q.limit, q.beforeUid);
  const emails = await summaries(client, box.path, page.uids, q.limit);
  const lowest = page.uids[page.uids.length - 1];
  return { folder: box.path, emails, next_before_uid: page.more && lowest !== undefined ? lowest : null };
}

