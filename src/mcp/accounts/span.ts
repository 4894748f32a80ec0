// A read across every mailbox of a connection (get_recent_emails, search_emails, list_mailboxes
// without `account`): the mailboxes are asked in parallel, at most SPAN_PARALLEL at once, each within
// its own time budget, so one that is down or answers after 30 s lands in `accounts_failed` and does
// not hold or fail the others (docs/design.md §3 "Several mailboxes").
import type { CallToolResult } from "@modelcontextprotocol/server";
import { MailError } from "../../mail/errors.ts";
import type { MailboxRef } from "../tools/context.ts";
import { ToolInputError } from "../tools/result.ts";

/** Mailboxes asked at once: a connection holds at most 10; four keeps a cold start's logins from piling up. */
export const SPAN_PARALLEL = 4;
/** How long one mailbox may take in a spanning read before it is reported as failed. */
export const SPAN_MAILBOX_BUDGET_MS = 20_000;

export type MailboxAnswer = { ref: MailboxRef; structured: Record<string, unknown> } | { ref: MailboxRef; error: string };

/** Runs `ask` for each mailbox (bounded, each within `budgetMs`); an answer or the reason it failed, in the given order. */
export async function askEach(refs: readonly MailboxRef[], ask: (ref: MailboxRef) => Promise<CallToolResult>,
  budgetMs = SPAN_MAILBOX_BUDGET_MS): Promise<MailboxAnswer[]> {
  const out: MailboxAnswer[] = new Array(refs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < refs.length; i = next++) out[i] = await askOne(refs[i]!, ask, budgetMs);
  };
  await Promise.all(Array.from({ length: Math.min(SPAN_PARALLEL, refs.length) }, worker));
  return out;
}

async function askOne(ref: MailboxRef, ask: (ref: MailboxRef) => Promise<CallToolResult>, budgetMs: number): Promise<MailboxAnswer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MailError("timeout", `did not answer within ${Math.round(budgetMs / 1000)} s`)), budgetMs);
  });
  try {
    const result = await Promise.race([ask(ref), late]);
    if (result.isError) return { ref, error: textOf(result) };
    return { ref, structured: (result.structuredContent ?? {}) as Record<string, unknown> };
  } catch (err) {
    // An argument error is the caller's, whatever the mailbox: it fails the call as with one mailbox.
    if (err instanceof ToolInputError) throw err;
    return { ref, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join(" ").trim() || "failed";

export const failedOf = (answers: readonly MailboxAnswer[]) =>
  answers.flatMap((a) => ("error" in a ? [{ account: a.ref.account ?? `mailbox ${a.ref.position + 1}`, error: a.error }] : []));
