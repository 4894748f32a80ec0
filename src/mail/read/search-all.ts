// search_emails with folder "*": every folder a person files mail in, newest first across them, in
// pages that neither repeat nor skip a message (./search-cursor.ts). Each folder is searched on the
// server; only the `limit` newest candidates of each are fetched, and a k-way merge by arrival time
// (./newest-first.ts) picks the page; each folder is consumed in its own order (highest UID first),
// so the cursor can say where it stopped.
import type { ImapFlow } from "imapflow";
import { MailError } from "../errors.ts";
import { isGmail } from "../imap/capabilities.ts";
import { findSpecialUse, listFolders } from "../imap/folders.ts";
import { fetchOwn, withMailbox } from "../imap/mailbox.ts";
import { countOf, toSet, topBelow } from "../imap/uid-set.ts";
import type { CursorSeal } from "./cursor-seal.ts";
import { encodeCursor, MAX_SEARCHED_FOLDERS, queryKey, type AllCursor, type FolderMark } from "./search-cursor.ts";
import { newestFirst, takenOf } from "./newest-first.ts";
import { matchingRanges, type SearchCriteria } from "./search.ts";
import { trustedAuthservIds } from "./sender/trust.ts";
import { SUMMARY_QUERY, toSummary, type Summary } from "./summary.ts";

export interface AllSearchPage {
  folder: "*";
  folders_searched: string[];
  total: number;
  emails: Summary[];
  next_cursor: string | null;
}

export { MAX_SEARCHED_FOLDERS };

// RFC 6154: Trash and Junk hold what the person threw away; \All and \Flagged are virtual views
// that repeat messages of other folders (a match would come twice).
const SKIPPED = new Set(["\\Trash", "\\Junk", "\\All", "\\Flagged"]);

/** Every folder to search, in LIST order. On Gmail, All Mail alone: every other folder is a label view of it. */
export async function searchableFolders(client: ImapFlow): Promise<string[]> {
  const folders = (await listFolders(client)).filter((f) => !f.flags.has("\\Noselect") && !f.flags.has("\\NonExistent"));
  const all = isGmail(client) ? findSpecialUse(folders, "\\All") : undefined;
  if (all) return [all.path];
  return folders.filter((f) => !SKIPPED.has(f.specialUse ?? "")).map((f) => f.path);
}

/** A candidate match: its summary and its arrival time, the merge key. */
export interface Head {
  summary: Summary;
  /** INTERNALDATE in ms: the merge key. */
  at: number;
}

interface FolderRun {
  mark: FolderMark;
  count: number;
  /** The next candidates below the mark, newest (highest UID) first. */
  heads: Head[];
  more: boolean;
}

/** One mailbox's part of a search over every folder, before anything of it is shown. */
export interface FolderRuns {
  folders_searched: string[];
  /** Searchable folders left out by the bound (known on a first page only). */
  not_searched: string[];
  total: number;
  /** Up to `limit` candidates in merged order, newest first. */
  heads: Head[];
  /** Where each folder goes on once the first `shown` heads were shown (the rest come again). */
  marksAfter(shown: number): FolderMark[];
}

/** `cursor`: the previous page's, already opened (decodeCursor) before any IMAP work. */
export async function searchAll(client: ImapFlow, criteria: SearchCriteria, limit: number, cursor: AllCursor | null, seal: CursorSeal): Promise<AllSearchPage> {
  const runs = await searchFolders(client, criteria, limit, cursor?.folders ?? null, MAX_SEARCHED_FOLDERS);
  const next = runs.marksAfter(runs.heads.length);
  return {
    folder: "*",
    folders_searched: runs.folders_searched,
    total: runs.total,
    emails: runs.heads.map((h) => h.summary),
    next_cursor: next.some((m) => m.before !== 0) ? encodeCursor(seal, { query: queryKey(criteria), folders: next }) : null,
  };
}

/**
 * Searches the folders `marks` name (null: the first `maxFolders` searchable ones, from their newest
 * match) and merges their candidates; a search across mailboxes shows only a prefix of them.
 */
export async function searchFolders(client: ImapFlow, criteria: SearchCriteria, limit: number, marks: FolderMark[] | null,
  maxFolders: number): Promise<FolderRuns> {
  const all = marks ? null : await searchableFolders(client);
  const from = marks ?? all!.slice(0, maxFolders).map((path): FolderMark => ({ path, uidValidity: null, before: null }));
  const runs: FolderRun[] = [];
  for (const mark of from) runs.push(await searchFolder(client, mark, criteria, limit));
  const order = newestFirst(runs.map((r) => r.heads), limit);
  return {
    folders_searched: from.map((m) => m.path),
    not_searched: all ? all.slice(maxFolders) : [],
    total: runs.reduce((n, r) => n + r.count, 0),
    heads: order.map(([i, k]) => runs[i]!.heads[k]!),
    marksAfter: (shown) => {
      const taken = takenOf(order, runs.length, shown);
      return runs.map((r, i) => advance(r, taken[i]!));
    },
  };
}

async function searchFolder(client: ImapFlow, mark: FolderMark, criteria: SearchCriteria, limit: number): Promise<FolderRun> {
  try {
    return await withMailbox(client, mark.path, async (box) => {
      const uidValidity = box.uidValidity === undefined ? null : String(box.uidValidity);
      // A folder whose UIDs were renumbered (RFC 3501 §2.3.1.1) is searched from its newest match again.
      const before = mark.uidValidity !== null && mark.uidValidity !== uidValidity ? null : mark.before;
      const ranges = await matchingRanges(client, criteria);
      const run: FolderRun = { mark: { ...mark, uidValidity, before }, count: countOf(ranges), heads: [], more: false };
      if (before === 0) return run;
      const page = topBelow(ranges, limit, before);
      const trusted = trustedAuthservIds(client);
      const msgs = page.uids.length ? await fetchOwn(client, toSet(page.uids), SUMMARY_QUERY, true, new Set(page.uids)) : [];
      run.heads = msgs.map((m) => ({ summary: toSummary(m, box.path, trusted), at: m.internalDate ? new Date(m.internalDate).getTime() || 0 : 0 }))
        .sort((a, b) => b.summary.uid - a.summary.uid);
      run.more = page.more;
      return run;
    }, { readOnly: true, freshness: "verify" });
  } catch (err) {
    // Deleted or renamed by another client since the first page: nothing more comes from it.
    if (err instanceof MailError && err.kind === "not_found") return { mark: { ...mark, before: 0 }, count: 0, heads: [], more: false };
    throw err;
  }
}

/**
 * Where a folder goes on from: below the last match it gave; when it gave none, below its newest
 * match now, so that mail arriving later does not slip into later pages (as with before_uid).
 */
function advance(run: FolderRun, taken: number): FolderMark {
  const { mark, heads, more } = run;
  if (mark.before === 0 || (taken === heads.length && !more)) return { ...mark, before: 0 };
  if (taken > 0) return { ...mark, before: heads[taken - 1]!.summary.uid };
  if (mark.before === null && heads.length) return { ...mark, before: heads[0]!.summary.uid + 1 };
  return mark;
}
