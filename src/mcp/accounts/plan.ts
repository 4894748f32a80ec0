// Planning the first page of a spanning get_recent_emails from what each mailbox's connection
// already holds: the UIDs of its newest messages and their dates, which never change for a UID
// (RFC 9051 §2.3.1.1). The merge (./merge.ts) takes only some of each mailbox's newest, 20 of the
// 60 on three mailboxes; asked for just those, each mailbox's server sends and this process parses a
// third of the flags it would otherwise, on loopback most of a spanning call's extra work. Each
// answer is checked against the plan, and a mailbox that changed meanwhile is read in full.
import type { MailboxRef } from "../tools/context.ts";
import { mergeOrder, sortKey } from "./merge.ts";
import type { MailboxAnswer } from "./span.ts";

/** A mailbox's newest messages as its connection last saw them, newest first. */
export type Known = readonly { uid: number; date: string | null }[];

/**
 * What a mailbox's open connection knows of its newest `limit` in the call's folder, sending and
 * waiting for nothing; null when it does not know (a connection not open yet is then read in full,
 * within the spanning read's bound and budget: ./span.ts).
 */
export type Peek = (ref: MailboxRef, args: Record<string, unknown>) => Known | null;

/** How many of each list's front the merged page of `limit` takes. */
export function counts(lists: readonly Known[], limit: number): number[] {
  const taken = lists.map(() => 0);
  for (const i of mergeOrder(lists.map((l) => l.map(sortKey)), limit)) taken[i]!++;
  return taken;
}

/** How many to ask each mailbox for: what the page takes of it, at least one (the least a read asks). */
export const askedOf = (counts: readonly number[]) => counts.map((n) => Math.max(1, n));

/** The answer is the plan's: exactly the known newest `asked` UIDs (a failed mailbox has nothing to merge). */
export function asPlanned(answer: MailboxAnswer, known: Known, asked: number): boolean {
  if ("error" in answer) return true;
  const emails = (answer.structured.emails ?? []) as { uid: number }[];
  const want = known.slice(0, asked);
  return emails.length === want.length && emails.every((e, i) => e.uid === want[i]!.uid);
}

/**
 * The mailboxes whose planned answer is too short once the ones that changed are read in full: the
 * plan made again with what they hold now, each unchanged mailbox compared with what it was asked for.
 */
export function shortOnes(known: readonly Known[], answers: readonly MailboxAnswer[], changed: ReadonlySet<number>,
  asked: readonly number[], limit: number): number[] {
  const lists = known.map((k, i) => {
    const a = answers[i]!;
    if (!changed.has(i)) return k;
    return "error" in a ? [] : ((a.structured.emails ?? []) as { uid: number; date: string | null }[]);
  });
  return counts(lists, limit).flatMap((n, i) => (!changed.has(i) && n > asked[i]! ? [i] : []));
}
