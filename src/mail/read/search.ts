// search_emails: a server-side SEARCH, and the page of matches asked for.
import type { ImapFlow, SearchObject } from "imapflow";
import { withMailbox } from "../imap/mailbox.ts";
import { countOf } from "../imap/uid-set.ts";
import { searchRanges, uidPage, type Page } from "./pages.ts";

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
