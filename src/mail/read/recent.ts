// get_recent_emails: the newest messages of a folder, a page at a time.
import type { FetchMessageObject, ImapFlow, MailboxObject } from "imapflow";
import { tracking } from "../imap/client.ts";
import { MailError } from "../errors.ts";
import { withMailbox } from "../imap/mailbox.ts";
import { knownTop, rememberTop, viewStamp } from "../imap/top-uids.ts";
import { searchRanges, summaries, summariesOf, uidPage, type Page } from "./pages.ts";
import type { Summary } from "./summary.ts";
import { keptSummary, validityOf } from "./summary-cache.ts";

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
  /**
   * A read across mailboxes that knows, from dates this connection already holds, that its merged
   * page takes only this many of the folder's newest (../../mcp/accounts/plan.ts): while the known
   * top holds, only they are fetched and the page is that many long; otherwise `limit` as usual.
   */
  planned?: number;
}

/**
 * The newest messages: a sequence range from the end of the folder, `limit` messages long. When
 * the folder's top UIDs are known and the server has reported no change since (../imap/top-uids.ts),
 * one UID FETCH does it, and its end-of-command update proves the answer current.
 */
export async function recentEmails(client: ImapFlow, q: RecentQuery): Promise<Page> {
  const plain = !q.unreadOnly && q.beforeUid === null;
  const known = (box: MailboxObject) => (plain ? knownTop(client, box.path, box.exists, q.limit) : null);
  return withMailbox(client, q.folder, async (box) => {
    if (q.unreadOnly) return uidPage(client, box, await searchRanges(client, { seen: false }), q);
    const newest = known(box);
    if (newest !== null) {
      const want = q.planned === undefined ? newest : newest.slice(-Math.max(1, q.planned));
      // "lowest:*" brings anything that arrived above the known top too: then the count differs.
      const emails = await summaries(client, box.path, `${want[0]}:*`, q.limit, true, want);
      if (emails.length === Math.min(want.length, box.exists)) return topPage(box, emails);
    }
    const top = q.beforeUid === null ? box.exists : await countBelow(client, q.beforeUid);
    if (top === 0) return { folder: box.path, emails: [], next_before_uid: null };
    const start = Math.max(1, top - q.limit + 1);
    const stamp = viewStamp(client);
    const early = top === box.exists ? prefetchedRange(client, box.path, start, top) : null;
    const emails = early ? newestFirst(summariesOf(client, box.path, validityOf(client), early), q.limit)
      : await summaries(client, box.path, `${start}:${top}`, q.limit);
    if (top === box.exists) noteNewest(client, box.path, top, emails, stamp);
    const lowestSeen = emails[emails.length - 1];
    return { folder: box.path, emails, next_before_uid: start > 1 && lowestSeen ? lowestSeen.uid : null };
  }, {
    readOnly: true, freshness: (box) => (q.unreadOnly || known(box) !== null ? "verify" : "sync"),
    // Unread only: a flag change may add a message to the page or take one off it.
    flagChanges: q.unreadOnly ? "any" : "shown",
  });
}

/**
 * The newest `limit` messages of `folder` as this connection last saw them, newest first, with their
 * dates (fixed for a UID: ./summary-cache.ts), sending nothing; null unless the folder is the one
 * selected and its top and every summary are known (../imap/top-uids.ts). A guess to plan by: the
 * read that follows checks it.
 */
export function knownNewest(client: ImapFlow, folder: string, limit: number): { uid: number; date: string | null }[] | null {
  const box = client.mailbox;
  const validity = validityOf(client);
  if (!box || box.path !== folder || validity === null) return null;
  const uids = knownTop(client, box.path, box.exists, limit);
  if (!uids) return null;
  const out: { uid: number; date: string | null }[] = [];
  for (let i = uids.length - 1; i >= 0; i--) {
    const fixed = keptSummary(client, box.path, validity, uids[i]!);
    if (!fixed) return null;
    out.push({ uid: fixed.uid, date: fixed.date });
  }
  return out;
}

/**
 * Messages `start`..`top` (sequence numbers) as the connection's first turn fetched them, when it
 * fetched every one of them for this call (../imap/early-prefetch.ts; its UID range was a guess from
 * an earlier read); null otherwise.
 */
function prefetchedRange(client: ImapFlow, path: string, start: number, top: number): FetchMessageObject[] | null {
  const pre = tracking(client)?.prefetched;
  if (!pre || pre.path !== path) return null;
  const bySeq = new Map(pre.messages.filter((m) => m.seq >= start && m.seq <= top).map((m) => [m.seq, m]));
  return bySeq.size === top - start + 1 ? [...bySeq.values()] : null;
}

const newestFirst = (emails: Summary[], limit: number) => emails.sort((a, b) => b.uid - a.uid).slice(0, limit);

/** The newest page just read: kept as the folder's known top, and where it begins told to the pool. */
function noteNewest(client: ImapFlow, path: string, top: number, emails: Summary[], stamp: ReturnType<typeof viewStamp>): void {
  rememberTop(client, path, top, emails.map((e) => e.uid), stamp);
  const low = emails[emails.length - 1]?.uid;
  if (low !== undefined) tracking(client)?.noteNewest?.(path, low);
}

/** The newest page of a folder: older messages remain when the folder holds more than the page. */
function topPage(box: MailboxObject, emails: Summary[]): Page {
  const lowest = emails[emails.length - 1];
  return { folder: box.path, emails, next_before_uid: box.exists > emails.length && lowest ? lowest.uid : null };
}

