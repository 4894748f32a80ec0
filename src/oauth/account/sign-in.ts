// Signing in on the owner's page with the mailbox itself (docs/owner.md §7): the setup form's fields,
// its whose-mailbox checks and the same live IMAP login under the same limits as /oauth/connect
// (a wrong password here counts toward that form's limit too). The password is used for the login
// check and dropped; what the session keeps is the keyed hash of the login, as the grants carry it.
import type { Config } from "../../config.ts";
import type { MailAccount } from "../../mail/account.ts";
import type { PendingRequest } from "../../store/grant-records.ts";
import { mailboxKey } from "../../store/crypto.ts";
import type { AccountSessions } from "../../store/account-sessions.ts";
import { parseConnectFields, type ConnectFields } from "../setup/connect-form.ts";
import { limitedLogin, loginOf, type LoginDeps } from "../setup/connect.ts";
import { serverRefusal } from "../setup/mailbox-policy.ts";

export interface AccountSignInDeps extends Omit<LoginDeps, "config"> {
  config: LoginDeps["config"] & Pick<Config, "secretKey">;
  sessions: AccountSessions;
}

export type AccountSignIn =
  | { kind: "session"; id: string }
  | { kind: "form"; status: number; message: string; retryAfter?: number };

/** limitedLogin answers in the setup form's terms; this sign-in has no pending authorization to carry. */
const NO_PENDING: PendingRequest = {
  idHash: "", csrfHash: "", clientId: null, redirectUri: "", codeChallenge: "", state: null, resource: null, scope: null, expiresAt: 0,
};

const form = (status: number, message: string, retryAfter?: number): AccountSignIn => ({ kind: "form", status, message, retryAfter });

export async function accountSignIn(deps: AccountSignInDeps, fields: ConnectFields, clientIp: string): Promise<AccountSignIn> {
  const parsed = parseConnectFields(fields);
  if (!parsed.ok) return form(400, parsed.message);
  const account: MailAccount = {
    ...parsed.account,
    requirePublicHosts: parsed.account.provider === "custom" && !deps.config.allowPrivateHosts,
  };
  return verifiedSession(deps, account, clientIp);
}

/**
 * The allowlist, the live IMAP login (limited as /oauth/connect) and, when both pass, a page session
 * for this mailbox. Shared with the provider sign-in's callback (src/oauth/provider-sign-in/callback.ts),
 * whose account carries a token used for this check only. `refused`: the words for a 401 login.
 */
export async function verifiedSession(deps: AccountSignInDeps, account: MailAccount, clientIp: string, refused?: string): Promise<AccountSignIn> {
  const foreign = serverRefusal(deps.config.allowedMailboxes, account);
  if (foreign) return form(403, foreign);
  const login = await limitedLogin(deps, account, NO_PENDING, clientIp);
  if (login.kind === "form") return form(login.status, login.status === 401 && refused ? refused : login.message, login.retryAfter);
  if (login.kind !== "verified") return form(400, "This sign-in could not be completed.");
  const key = mailboxKey(deps.config.secretKey, loginOf(account));
  return { kind: "session", id: await deps.sessions.open(key, account.email) };
}
