// The read operations behind list_mailboxes, get_recent_emails and search_emails. Plain functions
// over an ImapFlow client; every cost is bounded by `limit`, not by the folder size (DESIGN §7).
import type { ImapFlow, MailboxObject, SearchObject } from "imapflow";
import { fetchOwn, withMailbox } from "../imap/mailbox.ts";
import { knownLowest, rememberTop, viewStamp } from "../imap/top-uids.ts";
import { MailError } from "../errors.ts";
import { SUMMARY_QUERY, toSummary, type Summary } from "./summary.ts";
import { countOf, parseSet, rangesOf, toSet, topBelow, type Range } from "../imap/uid-set.ts";

export interface MailboxInfo {
  path: string;
  name: string;
  delimiter: string;
  special_use: string | null;
  flags: string[];
  messages: number | null;
  unseen: number | null;
  subscribed: boolean;
}

export interface Page {
  folder: string;
  emails: Summary[];
  next_before_uid: number | null;
}

/** The most folders listed: far above any real account, and a bound on what a hostile server can make us send on. */
export const MAX_FOLDERS = 5000;

/** One LIST with STATUS (LIST-STATUS where the server has it): one round trip for all folders. */
export async function listMailboxes(client: ImapFlow): Promise<MailboxInfo[]> {
  const list = await client.list({ statusQuery: { messages: true, unseen: true } });
  return list.slice(0, MAX_FOLDERS).map((m) => ({
    path: m.path,
    name: m.name,
    delimiter: m.delimiter ?? "",
    special_use: m.specialUse ?? null,
    flags: [...m.flags],
    messages: m.status?.messages ?? null,
    unseen: m.status?.unseen ?? null,
    subscribed: m.subscribed === true, // imapflow leaves it unset for unsubscribed folders
  }));
}

/**
 * Summaries for a sequence range or a UID list, newest (highest UID) first, at most `limit`:
 * answers the server pushes for other messages mid-FETCH never make a page longer or uid-less.
 */
async function summaries(client: ImapFlow, folder: string, range: string | number[], limit: number, uidRange = false): Promise<Summary[]> {
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

/** How many messages have a UID below `uid`: the sequence number of the last of them. */
async function countBelow(client: ImapFlow, uid: number): Promise<number> {
  if (uid <= 1) return 0;
  const found = await client.search({ uid: `1:${uid - 1}` }, { returnOptions: ["COUNT"] });
  if (!found) throw new MailError("protocol", "The mail server refused the search. Try again.");
  return Array.isArray(found) ? found.length : (found.count ?? 0);
}

export interface RecentQuery {
  folder: string;
  limit: number;
  beforeUid: number | null;
  unreadOnly: boolean;
}

/**
 * The newest messages: a sequence range from the end of the folder, `limit` messages long. When
 * the folder's top UIDs are known and the server has reported no change since (./top-uids.ts),
 * one UID FETCH does it, and its end-of-command update proves the answer current.
 */
export async function recentEmails(client: ImapFlow, q: RecentQuery): Promise<Page> {
  const plain = !q.unreadOnly && q.beforeUid === null;
  const known = (box: MailboxObject) => (plain ? knownLowest(client, box.path, box.exists, q.limit) : null);
  return withMailbox(client, q.folder, async (box) => {
    if (q.unreadOnly) return uidPage(client, box, await searchRanges(client, { seen: false }), q);
    const lowest = known(box);
    if (lowest !== null) {
      const emails = await summaries(client, box.path, `${lowest}:*`, q.limit, true);
      if (emails.length === Math.min(q.limit, box.exists)) return topPage(box, emails);
    }
    const top = q.beforeUid === null ? box.exists : await countBelow(client, q.beforeUid);
    if (top === 0) return { folder: box.path, emails: [], next_before_uid: null };
    const start = Math.max(1, top - q.limit + 1);
    const stamp = viewStamp(client);
    const emails = await summaries(client, box.path, `${start}:${top}`, q.limit);
    if (top === box.exists) rememberTop(client, box.path, top, emails.map((e) => e.uid), stamp);
    const lowestSeen = emails[emails.length - 1];
    return { folder: box.path, emails, next_before_uid: start > 1 && lowestSeen ? lowestSeen.uid : null };
  }, { readOnly: true, freshness: (box) => (q.unreadOnly || known(box) !== null ? "verify" : "sync") });
}

/** The newest page of a folder: older messages remain when the folder holds more than the page. */
function topPage(box: MailboxObject, emails: Summary[]): Page {
  const lowest = emails[emails.length - 1];
  return { folder: box.path, emails, next_before_uid: box.exists > emails.length && lowest ? lowest.uid : null };
}

/** One page (highest first) out of matching UID ranges. */
async function uidPage(client: ImapFlow, box: MailboxObject, ranges: Range[], q: { limit: number; beforeUid: number | null }): Promise<Page> {
  const page = topBelow(ranges, q.limit, q.beforeUid);
  const emails = await summaries(client, box.path, page.uids, q.limit);
  const lowest = page.uids[page.uids.length - 1];
  return { folder: box.path, emails, next_before_uid: page.more && lowest !== undefined ? lowest : null };
}

export interface SearchQuery {
  folder: string;
  from?: string;
  to?: string;
  subject?: string;
  text?: string;
  /** YYYY-MM-DD, inclusive (SENTSINCE). */
  since?: string;
  /** YYYY-MM-DD, exclusive (SENTBEFORE). */
  before?: string;
  unread?: boolean;
  flagged?: boolean;
  limit: number;
  beforeUid: number | null;
}

/** The IMAP SEARCH keys for a query; dates are whole UTC days, as IMAP dates have no time. */
export function searchCriteria(q: SearchQuery): SearchObject {
  const c: SearchObject = {};
  if (q.from) c.from = q.from;
  if (q.to) c.to = q.to;
  if (q.subject) c.subject = q.subject;
  if (q.text) c.text = q.text;
  if (q.since) c.sentSince = new Date(`${q.since}T00:00:00Z`);
  if (q.before) c.sentBefore = new Date(`${q.before}T00:00:00Z`);
  if (q.unread !== undefined) c.seen = !q.unread;
  if (q.flagged !== undefined) c.flagged = q.flagged;
  return c;
}

export interface SearchPage extends Page {
  total: number;
}

/** Server-side SEARCH; `total` counts every match, the page is fetched alone. */
export async function searchEmails(client: ImapFlow, q: SearchQuery): Promise<SearchPage> {
  return withMailbox(client, q.folder, async (box) => {
    const ranges = await searchRanges(client, searchCriteria(q));
    const page = await uidPage(client, box, ranges, q);
    return { ...page, total: countOf(ranges) };
  }, { readOnly: true, freshness: "verify" });
}
