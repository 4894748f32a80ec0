// Pages of summaries, newest (highest UID) first, shared by get_recent_emails and search_emails;
// every cost is bounded by the page's `limit`, not by the folder size (docs/design.md §7).
import type { ImapFlow, MailboxObject, SearchObject } from "imapflow";
import { MailError } from "../errors.ts";
import { fetchOwn } from "../imap/mailbox.ts";
import { parseSet, rangesOf, toSet, topBelow, type Range } from "../imap/uid-set.ts";
import { SUMMARY_QUERY, toSummary, type Summary } from "./summary.ts";

export interface Page {
  folder: string;
  emails: Summary[];
  next_before_uid: number | null;
}

/**
 * Summaries for a sequence range or a UID list, newest (highest UID) first, at most `limit`:
 * answers the server pushes for other messages mid-FETCH never make a page longer or uid-less.
 */
export async function summaries(client: ImapFlow, folder: string, range: string | number[], limit: number, uidRange = false): Promise<Summary[]> {
  if (Array.isArray(range) && range.length === 0) return [];
  const byUid = Array.isArray(range) || uidRange;
  const set = Array.isArray(range) ? toSet(range) : range;
  const msgs = await fetchOwn(client, set, SUMMARY_QUERY, byUid, Array.isArray(range) ? new Set(range) : undefined);
  return msgs.map((m) => toSummary(m, folder)).sort((a, b) => b.uid - a.uid).slice(0, limit);
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

