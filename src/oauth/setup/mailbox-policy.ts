// Whose mailboxes a sign-in may connect (src/allowed-mailboxes.ts, docs/oauth.md §10), as the setup
// form's two checks and their words. Any other sign-in path (an OAuth mail provider's callback) calls
// mailboxRefusal with what its login verified, after that login, before issuing a code.
import { hostAllowed, mailboxAllowed, type AllowedMailboxes, type VerifiedMailbox } from "../../allowed-mailboxes.ts";
import type { MailAccount } from "../../mail/account.ts";

const ASK_OWNER = "Ask the person who runs this server to add it to MAILBOX_MCP_ALLOWED_MAILBOXES.";

/** What a password login verifies: the login name at the IMAP host; a custom server is the visitor's choice. */
export function verifiedByLogin(account: MailAccount): VerifiedMailbox {
  return { login: account.username, imapHost: account.imap.host, serverChosenBy: account.provider === "custom" ? "visitor" : "operator" };
}

/**
 * Before anything is contacted: a server the visitor typed in is used only when its host is listed.
 * (Its login could never count otherwise, so asking it would only open a connection for nothing.)
 */
export function serverRefusal(list: AllowedMailboxes | null, account: MailAccount): string | null {
  if (account.provider !== "custom" || hostAllowed(list, account.imap.host)) return null;
  return `This server only connects the mailboxes its owner has listed, and the mail server ${account.imap.host} is not one of them. ${ASK_OWNER}`;
}

/** After the live login: the verified mailbox must be on the list. */
export function mailboxRefusal(list: AllowedMailboxes | null, mailbox: VerifiedMailbox): string | null {
  if (mailboxAllowed(list, mailbox)) return null;
  return `The mail server accepted the login ${mailbox.login}, but this server only connects the mailboxes its owner has listed, ` +
    `and this one is not among them. Nothing was stored. ${ASK_OWNER}`;
}
