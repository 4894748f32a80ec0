// The mailbox a request that is not a tool call names (the message resource, completions): the one
// whose address is `account`, or the connection's first when none is named (what the older resource
// form `mailbox://message/{folder}/{uid}` reads). Null when the connection holds no such mailbox.
import type { MailboxRow } from "../../store/grant-mailboxes.ts";
import type { MailboxRef } from "../tools/context.ts";
import { refOf } from "./resolve.ts";

export async function mailboxRefFor(mailboxes: { list(grantId: string): Promise<MailboxRow[]> }, grantId: string, account?: string): Promise<MailboxRef | null> {
  const rows = await mailboxes.list(grantId);
  const wanted = account?.trim().toLowerCase();
  const row = wanted === undefined ? rows[0] : rows.find((r) => r.address === wanted);
  return row ? refOf(row, rows.length > 1) : null;
}

/** The mailbox at `position` of the connection (a review card's, whose token names it by position); null when it is gone. */
export async function mailboxRefAt(mailboxes: { list(grantId: string): Promise<MailboxRow[]> }, grantId: string, position: number): Promise<MailboxRef | null> {
  const rows = await mailboxes.list(grantId);
  const row = rows.find((r) => r.position === position);
  return row ? refOf(row, rows.length > 1) : null;
}

/** The addresses of the connection's mailboxes starting with what was typed (completions). */
export async function accountsStarting(mailboxes: { list(grantId: string): Promise<MailboxRow[]> }, grantId: string, typed: string): Promise<string[]> {
  const t = typed.toLowerCase();
  return (await mailboxes.list(grantId)).flatMap((r) => (r.address && r.address.startsWith(t) ? [r.address] : []));
}
