// How each spanning tool reads across the mailboxes of a connection (attached to the tool in
// ../tools/index.ts, which hands the cursor key to the two that page): ask each mailbox with the
// tool's own handler, then merge (./merge.ts).
import type { CallToolResult } from "@modelcontextprotocol/server";
import { grantCursorKey } from "../../mail/read/cursor-seal.ts";
import type { MailboxRef, ToolContext } from "../tools/context.ts";
import { ToolInputError } from "../tools/result.ts";
import { mergeEmails, mergeMailboxes, openSpanCursor } from "./merge.ts";
import { askEach, type MailboxAnswer } from "./span.ts";
import { askedOf, asPlanned, counts, shortOnes, type Known, type Peek } from "./plan.ts";

/** Asks one mailbox; `planned`: how many of its newest the merged page needs (./plan.ts), for a tool that can be asked so. */
export type Ask = (ref: MailboxRef, args: Record<string, unknown>, planned?: number) => Promise<CallToolResult>;

/**
 * A tool's read across mailboxes: its args, every mailbox, how to ask one, the connection's grant,
 * a mailbox's context (for a read that is not the tool's handler), and, for a tool that can plan its
 * first page (get_recent_emails), how to peek at what a mailbox's open connection knows.
 */
export type Across = (args: Record<string, unknown>, refs: readonly MailboxRef[], ask: Ask, grantId: string,
  contextFor: (ref: MailboxRef) => ToolContext, peek?: Peek) => Promise<CallToolResult>;

const nameOf = (ref: MailboxRef) => ref.account ?? `mailbox ${ref.position + 1}`;

/** get_recent_emails and search_emails: one page newest first by date, one cursor for the merged order. */
export const acrossEmails = (cursorKey: Uint8Array): Across => async (args, refs, ask, grantId, _contextFor, peek) => {
  if (args.before_uid !== undefined) throw new ToolInputError("before_uid pages one mailbox; across mailboxes pass the previous next_cursor as cursor, or name an account");
  if (args.folder === "*") throw new ToolInputError('account: folder "*" searches every folder of one mailbox; name the account');
  const seal = { key: grantCursorKey(cursorKey, grantId), mailbox: "span" };
  const before = openSpanCursor(seal, args.cursor as string | undefined);
  const open = refs.filter((r) => (before?.[nameOf(r)] ?? 0) !== -1);
  const asking = (ref: MailboxRef, planned?: number) => {
    const at = before?.[nameOf(ref)] ?? 0;
    return ask(ref, { ...args, cursor: undefined, ...(at > 0 ? { before_uid: at } : {}) }, planned);
  };
  const answers = peek && !before ? await planned(open, args, asking, peek) : await askEach(open, (ref) => asking(ref));
  return mergeEmails(answers, before, args.limit as number, seal, { folder: args.folder as string, ...totals(answers) });
};

/**
 * The first page asked as planned (./plan.ts) when every mailbox's connection knows its newest:
 * each for what the merged page takes of it. A mailbox whose answer is not the plan's (mail came or
 * went) was read in full by the same call; an unchanged one that then falls short is asked again.
 */
async function planned(open: readonly MailboxRef[], args: Record<string, unknown>,
  asking: (ref: MailboxRef, planned?: number) => Promise<CallToolResult>, peek: Peek): Promise<MailboxAnswer[]> {
  const known = open.map((ref) => peek(ref, args));
  if (known.some((k) => k === null)) return askEach(open, (ref) => asking(ref));
  const lists = known as Known[];
  const asked = askedOf(counts(lists, args.limit as number));
  const answers = await askEach(open, (ref) => asking(ref, asked[open.indexOf(ref)]));
  const changed = new Set(open.flatMap((_, i) => (asPlanned(answers[i]!, lists[i]!, asked[i]!) ? [] : [i])));
  if (!changed.size) return answers;
  // Read in full unless another call moved the known top between the peek and the read (rare).
  await askAgain(open, answers, [...changed].filter((i) => !whole(answers[i]!, args.limit as number)), asking);
  await askAgain(open, answers, shortOnes(lists, answers, changed, asked, args.limit as number), asking);
  return answers;
}

/** The answer holds all the mailbox could give the page: `limit` messages, or all there are. */
function whole(answer: MailboxAnswer, limit: number): boolean {
  if ("error" in answer) return true;
  return ((answer.structured.emails ?? []) as unknown[]).length >= limit || answer.structured.next_before_uid === null;
}

async function askAgain(open: readonly MailboxRef[], answers: MailboxAnswer[], which: number[],
  asking: (ref: MailboxRef) => Promise<CallToolResult>): Promise<void> {
  if (!which.length) return;
  const again = await askEach(which.map((i) => open[i]!), (ref) => asking(ref));
  which.forEach((i, n) => { answers[i] = again[n]!; });
}

/** search_emails' counts across the mailboxes that answered: every match, and the folders searched. */
function totals(answers: readonly MailboxAnswer[]): { total?: number; folders_searched?: string[] } {
  const ok = answers.flatMap((a) => ("error" in a ? [] : [a.structured]));
  if (!ok.some((s) => typeof s.total === "number")) return {};
  const folders = new Set(ok.flatMap((s) => (s.folders_searched ?? []) as string[]));
  return { total: ok.reduce((n, s) => n + Number(s.total ?? 0), 0), folders_searched: [...folders] };
}

/** list_mailboxes: every mailbox's folders, each naming its account. */
export const acrossMailboxes: Across = async (args, refs, ask) => mergeMailboxes(await askEach(refs, (ref) => ask(ref, args)));
