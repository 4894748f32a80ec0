// search_emails with folder "*": every folder a person files mail in, newest first across them, in
// pages that neither repeat nor skip a message (./search-cursor.ts). Each folder is searched on the
// server; only the `limit` newest candidates of each are fetched, and a k-way merge by arrival time
// (INTERNALDATE, set by the server, never by a sender) picks the page.
import type { ImapFlow } from "imapflow";
import { MailError } from "../errors.ts";
import { isGmail } from "../imap/capabilities.ts";
import { findSpecialUse, listFolders } from "../imap/folders.ts";
import { fetchOwn, withMailbox } from "../imap/mailbox.ts";
import { countOf, toSet, topBelow } from "../imap/uid-set.ts";
import type { CursorSeal } from "./cursor-seal.ts";
import { encodeCursor, MAX_SEARCHED_FOLDERS, queryKey, type AllCursor, type FolderMark } from "./search-cursor.ts";
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

interface Head {
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

/** `cursor`: the previous page's, already opened (decodeCursor) before any IMAP work. */
export async function searchAll(client: ImapFlow, criteria: SearchCriteria, limit: number, cursor: AllCursor | null, seal: CursorSeal): Promise<AllSearchPage> {
  const marks = cursor
    ? cursor.folders
    : (await searchableFolders(client)).slice(0, MAX_SEARCHED_FOLDERS).map((path): FolderMark => ({ path, uidValidity: null, before: null }));
  const runs: FolderRun[] = [];
  for (const mark of marks) runs.push(await searchFolder(client, mark, criteria, limit));
  const { page: emails, taken } = merge(runs, limit);
  const next = runs.map((r, i) => advance(r, taken[i]!));
  return {
    folder: "*",
    folders_searched: marks.map((m) => m.path),
    total: runs.reduce((n, r) => n + r.count, 0),
    emails,
    next_cursor: next.some((m) => m.before !== 0) ? encodeCursor(seal, { query: queryKey(criteria), folders: next }) : null,
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
 * The page: repeatedly the newest head among the folders (ties: the folder listed first). Each
 * folder is consumed in its own order (highest UID first), so the cursor can say where it stopped.
 * Returns the page and how many heads each folder gave.
 */
function merge(runs: FolderRun[], limit: number): { page: Summary[]; taken: number[] } {
  const page: Summary[] = [];
  const taken = runs.map(() => 0);
  const head = (i: number) => runs[i]!.heads[taken[i]!];
  while (page.length < limit) {
    let best = -1;
    for (let i = 0; i < runs.length; i++) {
      const h = head(i);
      if (h && (best < 0 || h.at > head(best)!.at)) best = i;
    }
    if (best < 0) break;
    page.push(head(best)!.summary);
    taken[best]!++;
  }
  return { page, taken };
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
