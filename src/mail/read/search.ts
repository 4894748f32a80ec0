// search_emails in one folder: a server-side SEARCH, and the page of matches asked for.
import type { ImapFlow, SearchObject } from "imapflow";
import { InputError } from "../errors.ts";
import { fetchOwn, withMailbox } from "../imap/mailbox.ts";
import { countOf, rangesOf, type Range } from "../imap/uid-set.ts";
import { searchRanges, uidPage, type Page } from "./pages.ts";
import { attachmentNodes } from "./summary.ts";

export interface SearchCriteria {
  from?: string;
  to?: string;
  cc?: string;
  subject?: string;
  text?: string;
  /** YYYY-MM-DD, inclusive (SENTSINCE). */
  since?: string;
  /** YYYY-MM-DD, exclusive (SENTBEFORE). */
  before?: string;
  unread?: boolean;
  flagged?: boolean;
  answered?: boolean;
  /** Bytes (RFC822.SIZE): LARGER / SMALLER. */
  largerThan?: number;
  smallerThan?: number;
  /** No IMAP SEARCH key says this: checked on each candidate's BODYSTRUCTURE (./summary.ts's rule). */
  hasAttachment?: boolean;
}

export interface SearchQuery extends SearchCriteria {
  folder: string;
  limit: number;
  beforeUid: number | null;
}

/** The IMAP SEARCH keys for a query; dates are whole UTC days, as IMAP dates have no time. */
export function searchCriteria(q: SearchCriteria): SearchObject {
  const c: SearchObject = {};
  if (q.from) c.from = q.from;
  if (q.to) c.to = q.to;
  if (q.cc) c.cc = q.cc;
  if (q.subject) c.subject = q.subject;
  if (q.text) c.text = q.text;
  if (q.since) c.sentSince = new Date(`${q.since}T00:00:00Z`);
  if (q.before) c.sentBefore = new Date(`${q.before}T00:00:00Z`);
  if (q.unread !== undefined) c.seen = !q.unread;
  if (q.flagged !== undefined) c.flagged = q.flagged;
  if (q.answered !== undefined) c.answered = q.answered;
  if (q.largerThan !== undefined) c.larger = q.largerThan;
  if (q.smallerThan !== undefined) c.smaller = q.smallerThan;
  if (!Object.keys(c).length) c.all = true; // has_attachment alone
  return c;
}

export interface SearchPage extends Page {
  total: number;
}

/** Server-side SEARCH; `total` counts every match, the page is fetched alone. */
export async function searchEmails(client: ImapFlow, q: SearchQuery): Promise<SearchPage> {
  return withMailbox(client, q.folder, async (box) => {
    const ranges = await matchingRanges(client, q);
    const page = await uidPage(client, box, ranges, q);
    return { ...page, total: countOf(ranges) };
  }, { readOnly: true, freshness: "verify", flagChanges: searchesFlags(q) ? "any" : "shown" });
}

/** The criteria name a flag: another client's flag change may change which messages match. */
const searchesFlags = (q: SearchCriteria): boolean => q.unread !== undefined || q.flagged !== undefined || q.answered !== undefined;

/** The UIDs of the selected folder that match, as ranges. */
export async function matchingRanges(client: ImapFlow, q: SearchCriteria): Promise<Range[]> {
  const ranges = await searchRanges(client, searchCriteria(q));
  return q.hasAttachment === undefined ? ranges : withAttachments(client, ranges, q.hasAttachment);
}

/** More candidates than this for has_attachment is an error asking for narrower criteria. */
export const ATTACHMENT_CHECK_LIMIT = 10_000;

/**
 * The candidates whose BODYSTRUCTURE has (or lacks) an attachment, by the rule summaries use for
 * has_attachments: one UID FETCH of BODYSTRUCTURE alone (a few hundred bytes a message), so `total`
 * and paging stay exact.
 */
async function withAttachments(client: ImapFlow, ranges: Range[], wanted: boolean): Promise<Range[]> {
  const count = countOf(ranges);
  if (!count) return [];
  if (count > ATTACHMENT_CHECK_LIMIT) {
    throw new InputError("has_attachment", `is checked message by message, and ${count} messages match the other criteria ` +
      `(at most ${ATTACHMENT_CHECK_LIMIT}): add criteria such as since, from or larger_than`);
  }
  const set = ranges.map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo}:${hi}`)).join(",");
  const msgs = await fetchOwn(client, set, { uid: true, bodyStructure: true }, true, undefined, true);
  return rangesOf(msgs.filter((m) => (attachmentNodes(m.bodyStructure).length > 0) === wanted).map((m) => m.uid));
}

