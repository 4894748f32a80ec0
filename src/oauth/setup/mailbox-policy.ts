// Whose mailboxes a sign-in may connect (src/allowed-mailboxes.ts, docs/oauth.md §10), as the setup
// form's two checks and their words. Any other sign-in path (an OAuth mail provider's callback) calls
// mailboxRefusal with what its login verified, after that login, before issuing a code.
import { hostAllowed, mailboxAllowed, type AllowedMailboxes, type VerifiedMailbox } from "../../allowed-mailboxes.ts";
import type { MailAccount } from "../../mail/account.ts";

const ASK_OWNER = "Ask the person who runs this server to add it to MAILBOX_MCP_ALLOWED_MAILBOXES.";

/**
 * What a login verifies: the login name the IMAP server accepted (`login`, as the verifier reports
 * it; else the account's), at the IMAP host; a custom server is the visitor's choice. For a provider
 * sign-in that is the name the XOAUTH2 / OAUTHBEARER login presented with the token, which the server
 * checked against it, never the ID token's `email` claim (unverified in Microsoft's multi-tenant apps).
 */
export function verifiedByLogin(account: MailAccount, login: string = account.username): VerifiedMailbox {
  return { login, imapHost: account.imap.host, serverChosenBy: account.provider === "custom" ? "visitor" : "operator" };
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
