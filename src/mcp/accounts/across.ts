// How each spanning tool reads across the mailboxes of a connection (attached to the tool in
// ../tools/index.ts, which hands the cursor key to the two that page): ask each mailbox with the
// tool's own handler, then merge (./merge.ts).
import type { CallToolResult } from "@modelcontextprotocol/server";
import { grantCursorKey } from "../../mail/read/cursor-seal.ts";
import type { MailboxRef, ToolContext } from "../tools/context.ts";
import { ToolInputError } from "../tools/result.ts";
import { mergeEmails, mergeMailboxes, openSpanCursor } from "./merge.ts";
import { askEach, type MailboxAnswer } from "./span.ts";

export type Ask = (ref: MailboxRef, args: Record<string, unknown>) => Promise<CallToolResult>;

/** A tool's read across mailboxes: its args, every mailbox, how to ask one, the connection's grant, and a mailbox's context (for a read that is not the tool's handler). */
export type Across = (args: Record<string, unknown>, refs: readonly MailboxRef[], ask: Ask, grantId: string,
  contextFor: (ref: MailboxRef) => ToolContext) => Promise<CallToolResult>;

const nameOf = (ref: MailboxRef) => ref.account ?? `mailbox ${ref.position + 1}`;

/** get_recent_emails and search_emails: one page newest first by date, one cursor for the merged order. */
export const acrossEmails = (cursorKey: Uint8Array): Across => async (args, refs, ask, grantId) => {
  if (args.before_uid !== undefined) throw new ToolInputError("before_uid pages one mailbox; across mailboxes pass the previous next_cursor as cursor, or name an account");
  if (args.folder === "*") throw new ToolInputError('account: folder "*" searches every folder of one mailbox; name the account');
  const seal = { key: grantCursorKey(cursorKey, grantId), mailbox: "span" };
  const before = openSpanCursor(seal, args.cursor as string | undefined);
  const open = refs.filter((r) => (before?.[nameOf(r)] ?? 0) !== -1);
  const answers = await askEach(open, (ref) => {
    const at = before?.[nameOf(ref)] ?? 0;
    return ask(ref, { ...args, cursor: undefined, ...(at > 0 ? { before_uid: at } : {}) });
  });
  return mergeEmails(answers, before, args.limit as number, seal, { folder: args.folder as string, ...totals(answers) });
};

/** search_emails' counts across the mailboxes that answered: every match, and the folders searched. */
function totals(answers: readonly MailboxAnswer[]): { total?: number; folders_searched?: string[] } {
  const ok = answers.flatMap((a) => ("error" in a ? [] : [a.structured]));
  if (!ok.some((s) => typeof s.total === "number")) return {};
  const folders = new Set(ok.flatMap((s) => (s.folders_searched ?? []) as string[]));
  return { total: ok.reduce((n, s) => n + Number(s.total ?? 0), 0), folders_searched: [...folders] };
}

/** list_mailboxes: every mailbox's folders, each naming its account. */
export const acrossMailboxes: Across = async (args, refs, ask) => mergeMailboxes(await askEach(refs, (ref) => ask(ref, args)));
