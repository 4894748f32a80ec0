// search_emails without `account` on a connection of several mailboxes (docs/tools.md "Accounts"):
// one folder is read as every spanning read is (./across.ts); every folder (folder "*") here. Each
// mailbox searches its share of the folder bound (src/mail/read/search-all.ts searchFolders), the
// mailboxes' candidates are merged newest first by arrival time, and each mailbox advances by exactly
// what it showed, so pages neither repeat nor skip a message; one sealed cursor
// (src/mail/read/search-span-cursor.ts) holds every mailbox's folder marks.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { grantCursorKey, type CursorSeal } from "../../mail/read/cursor-seal.ts";
import { newestFirst, takenOf } from "../../mail/read/newest-first.ts";
import { searchFolders, type FolderRuns } from "../../mail/read/search-all.ts";
import { MAX_SEARCHED_FOLDERS, queryKey } from "../../mail/read/search-cursor.ts";
import { decodeSpanCursor, encodeSpanCursor, spanSeal, type MailboxMarks } from "../../mail/read/search-span-cursor.ts";
import type { Summary } from "../../mail/read/summary.ts";
import type { MailboxRef, ToolContext } from "../tools/context.ts";
import { criteriaOf, type SearchArgs } from "../tools/read/search-emails.ts";
import { ok, ToolInputError } from "../tools/result.ts";
import { summaryLines } from "../tools/schemas/summary.ts";
import { acrossEmails, type Across } from "./across.ts";
import { askEach, failedOf } from "./span.ts";

/** search_emails' read across mailboxes: folder "*" here, one folder as get_recent_emails'. */
export const acrossSearch = (cursorKey: Uint8Array): Across => {
  const oneFolder = acrossEmails(cursorKey);
  return (args, refs, ask, grantId, contextFor) => (args.folder === "*"
    ? searchEveryMailbox(args as SearchArgs, refs, spanSeal(grantCursorKey(cursorKey, grantId), refs), contextFor)
    : oneFolder(args, refs, ask, grantId, contextFor));
};

interface Answered {
  /** The mailbox's place among the connection's (its entry in the cursor). */
  index: number;
  account: string;
  runs: FolderRuns;
}

const nameOf = (ref: MailboxRef) => ref.account ?? `mailbox ${ref.position + 1}`;

async function searchEveryMailbox(args: SearchArgs, refs: readonly MailboxRef[], seal: CursorSeal,
  contextFor: (ref: MailboxRef) => ToolContext): Promise<CallToolResult> {
  if (args.before_uid !== undefined) throw new ToolInputError('before_uid pages one folder; with folder "*" pass the previous next_cursor as cursor');
  const criteria = criteriaOf(args);
  const before = args.cursor === undefined ? refs.map(() => null) : decodeSpanCursor(seal, args.cursor, criteria, refs.length).mailboxes;
  // The folder bound of one search, shared out: the cursor then holds at most as many marks as one mailbox's.
  const share = Math.floor(MAX_SEARCHED_FOLDERS / refs.length);
  const answers = await askEach(refs, async (ref) => {
    const marks = before[refs.indexOf(ref)]!;
    const runs = await contextFor(ref).withImap((client) => searchFolders(client, criteria, args.limit, marks, share));
    return { content: [], structuredContent: { runs } };
  });
  const answered: Answered[] = answers.flatMap((a) =>
    ("error" in a ? [] : [{ index: refs.indexOf(a.ref), account: nameOf(a.ref), runs: a.structured.runs as FolderRuns }]));
  const order = newestFirst(answered.map((a) => a.runs.heads), args.limit);
  const emails = order.map(([q, k]) => ({ ...answered[q]!.runs.heads[k]!.summary, account: answered[q]!.account }));
  const taken = takenOf(order, answered.length);
  // A mailbox that failed keeps its place: the next page asks it again from there (or from the start).
  const after: MailboxMarks[] = [...before];
  answered.forEach((a, q) => { after[a.index] = a.runs.marksAfter(taken[q]!); });
  const more = answered.some((a) => after[a.index]!.some((m) => m.before !== 0));
  const next = more ? encodeSpanCursor(seal, { query: queryKey(criteria), mailboxes: after }) : null;
  const structured: SpanPage & Record<string, unknown> = {
    folder: "*", folders_searched: answered.flatMap((a) => a.runs.folders_searched.map((p) => `${a.account}: ${p}`)),
    total: answered.reduce((n, a) => n + a.runs.total, 0), emails, next_before_uid: null, next_cursor: next, accounts_failed: failedOf(answers),
  };
  return ok(structured, textOf(structured, answered, share, refs.length));
}

interface SpanPage {
  folders_searched: string[];
  total: number;
  emails: (Summary & { account: string })[];
  next_cursor: string | null;
  accounts_failed: { account: string; error: string }[];
}

function textOf(s: SpanPage, answered: readonly Answered[], share: number, count: number): string {
  const head = `${s.total} message(s) in ${s.folders_searched.length} folder(s) of ${answered.length} mailbox(es) match; ` +
    `showing ${s.emails.length}, newest first. Folders searched: ${s.folders_searched.join(", ")}.`;
  const skipped = answered.filter((a) => a.runs.not_searched.length).map((a) =>
    `Not searched in ${a.account} (at most ${share} folders per mailbox when ${count} are searched together; name the account to search up to ` +
    `${MAX_SEARCHED_FOLDERS} of its folders): ${a.runs.not_searched.join(", ")}.`);
  // Each line names its mailbox where one mailbox's page names the folder.
  const lines = s.emails.length ? [summaryLines(s.emails.map((e) => ({ ...e, folder: `${e.account}: ${e.folder}` })), null, true)] : [];
  return [head, ...skipped, ...lines, ...s.accounts_failed.map((f) => `Could not read ${f.account}: ${f.error}`),
    ...(s.next_cursor ? ["More matches: call again with the same criteria and cursor set to next_cursor."] : [])].join("\n");
}
