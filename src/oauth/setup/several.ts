// Several mailboxes in one connection on the setup form (docs/design.md §3): after each live login
// (password or provider sign-in) the mailbox is either added to what this request has verified so far
// (`another=1`: the page lists them and offers the form again and "finish"), or the connection is
// issued with all of them. At most MAX_MAILBOXES; one address once. Each was matched against
// MAILBOX_MCP_ALLOWED_MAILBOXES by its own login (./connect.ts tryLogin).
import { encodeAccount, type MailAccount } from "../../mail/account.ts";
import type { SendPolicy } from "../../send-policy.ts";
import type { SentMark } from "../../sent-mark.ts";
import { MAX_MAILBOXES, type NewMailbox } from "../../store/grant-mailboxes.ts";
import type { PendingRequest } from "../../store/pending.ts";
import type { PendingMailboxes } from "../../store/pending-mailboxes.ts";
import type { Access } from "./access.ts";
import type { ConnectFields } from "./connect-form.ts";

export interface SeveralDeps {
  /** What this request has verified so far (src/store/pending-mailboxes.ts). */
  collected: Pick<PendingMailboxes, "list" | "keep">;
}

/**
 * The verified mailbox as a grant will hold it. `seen.sentMark`: where its \Sent stood at the login
 * (src/sent-mark.ts); `signIn`: the provider's name when signed in there (what `mailbox-mcp grants` names).
 */
export function newMailbox(account: MailAccount, login: string, access: Access, sendPolicy: SendPolicy,
  seen: { sentMark?: SentMark }, signIn?: string): NewMailbox {
  return {
    credentials: encodeAccount(account), login, provider: account.provider, access, sendPolicy,
    label: { email: account.email, host: account.imap.host, ...(signIn ? { signIn } : {}) },
    ...(seen.sentMark ? { sentMark: seen.sentMark } : {}),
  };
}

export { MAX_MAILBOXES };

export const addressesOf = (mailboxes: readonly NewMailbox[]) => mailboxes.map((m) => m.label.email.toLowerCase());

export type Step =
  /** Issue the connection with these mailboxes (the last one just verified). */
  | { kind: "issue"; mailboxes: NewMailbox[] }
  /** Kept: show the page listing `connected`, the form again and "finish". */
  | { kind: "added"; connected: string[] }
  | { kind: "refused"; message: string; connected: string[] };

/** What to do with a mailbox whose login was just verified. */
export async function addMailbox(deps: SeveralDeps, pending: PendingRequest, fields: ConnectFields, mailbox: NewMailbox): Promise<Step> {
  const requestId = fields.request_id!;
  const soFar = await deps.collected.list(requestId, pending);
  const connected = addressesOf(soFar);
  const address = mailbox.label.email.toLowerCase();
  if (connected.includes(address)) return { kind: "refused", message: `${mailbox.label.email} is already connected here. Add a different mailbox, or finish.`, connected };
  if (soFar.length >= MAX_MAILBOXES) return { kind: "refused", message: `A connection holds at most ${MAX_MAILBOXES} mailboxes. Finish to return to the app.`, connected };
  const all = [...soFar, mailbox];
  if (fields.another !== "1") return { kind: "issue", mailboxes: all };
  await deps.collected.keep(requestId, pending, all);
  return { kind: "added", connected: addressesOf(all) };
}

/** "Finish": the mailboxes verified so far, or null when there are none yet. */
export async function finishedMailboxes(deps: SeveralDeps, pending: PendingRequest, requestId: string): Promise<NewMailbox[] | null> {
  const soFar = await deps.collected.list(requestId, pending);
  return soFar.length ? soFar : null;
}
