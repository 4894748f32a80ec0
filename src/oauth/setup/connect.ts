// POST /oauth/connect without the HTTP: the pending request, CSRF, input, whose mailboxes (a visitor's
// own server must be listed), rate limit, private hosts, the live IMAP login, whose mailboxes again (the
// verified login must be listed), then the authorization code (RFC 6749 §4.1.2). Statuses: docs/design.md §3.
import type { Config } from "../../config.ts";
import { decodeAccount, type MailAccount } from "../../mail/account.ts";
import type { NewMailbox } from "../../store/grant-mailboxes.ts";
import { addMailbox, finishedMailboxes, newMailbox, type SeveralDeps } from "./several.ts";
import { randomString } from "../../store/crypto.ts";
import type { GrantStore } from "../../store/grants.ts";
import type { IdentitySettings, MailboxIdentities } from "../../store/mailbox-identities.ts";
import type { PendingRequest, PendingStore } from "../../store/pending.ts";
import { scopeFor, type Access } from "./access.ts";
import { mailboxChoices } from "./mailbox-choices.ts";
import { form, type ConnectOutcome } from "./connect-outcome.ts";
import { limitedLogin, type LoginDeps } from "./live-login.ts";
import { startSignIn, type SignInStartDeps } from "../provider-sign-in/start.ts";
import { parseConnectFields, type ConnectFields } from "./connect-form.ts";
import type { SendPolicy } from "../../send-policy.ts";
import { serverRefusal } from "./mailbox-policy.ts";
import { successRedirect } from "../protocol/redirects.ts";
import type { TokenEvents } from "../lifecycle/token-events.ts";
import type { NotifyGrant } from "../../mail/write/grant-notice.ts";
import { redirectHost } from "../protocol/redirects.ts";
import { SEND_POLICY_LABELS } from "../../send-policy.ts";

export const CODE_LENGTH = 48; // docs/contract.md §2.2
export const CODE_TTL_MS = 5 * 60_000;
/**
 * Grants one mailbox login keeps through one client: a new connect revokes the older ones beyond
 * this (docs/decisions.md "Per-account limits"). Five covers one person's devices and apps
 * (Claude on the web and desktop, Claude Code on two machines, an inspector) without letting
 * repeated connects pile up tokens, each able to hold its own sessions and connections.
 */
export const GRANTS_PER_LOGIN = 5;

// Re-exported: what callers of the connect use case import from here.
export { form, type ConnectOutcome, type Verified } from "./connect-outcome.ts";
export { limitedLogin, MAX_INFLIGHT_LOGINS, type LoginDeps } from "./live-login.ts";

export interface ConnectDeps extends SeveralDeps, LoginDeps {
  config: Pick<Config, "allowPrivateHosts" | "baseUrl" | "clientId" | "allowedMailboxes">;
  grants: GrantStore;
  pending: PendingStore;
  /** Revocation fan-out, for the grants a new connect replaces. */
  events: TokenEvents;
  /** Sign-in at OAuth mail providers (src/oauth/provider-sign-in/): a provider of theirs is sent there instead of a password login. */
  signIn?: SignInStartDeps;
  /** The INBOX notice of a new grant (src/mail/write/grant-notice.ts); absent with MAILBOX_MCP_NOTIFY_GRANTS=false. */
  notify?: NotifyGrant;
  /** The mailbox's send-as identities and signature, stored when the login succeeds (src/store/mailbox-identities.ts). */
  identities?: Pick<MailboxIdentities, "keyOf" | "set">;
}




/**
 * The mailbox login a grant is for: the login name at the IMAP server. Host names and, in practice,
 * login names are case-insensitive, so "Alice@Example.com" and "alice@example.com" are one login.
 * Grants are replaced per login *and client* (the configured one, or a registered one).
 */
export function loginOf(account: MailAccount): string {
  return `${account.username.toLowerCase()}\0${account.imap.host.toLowerCase()}:${account.imap.port}`;
}

export async function connectMailbox(deps: ConnectDeps, fields: ConnectFields, clientIp: string): Promise<ConnectOutcome> {
  const pending = fields.request_id ? await deps.pending.get(fields.request_id) : null;
  if (!pending) return { kind: "expired" };
  if (!fields.csrf_token || !deps.pending.csrfMatches(pending, fields.csrf_token)) return { kind: "forbidden" };
  if (fields.finish === "1") {
    const mailboxes = await finishedMailboxes(deps, pending, fields.request_id!);
    return mailboxes ? issueGrant(deps, pending, mailboxes) : form(pending, 400, "Connect a mailbox first.");
  }
  const oauth = deps.signIn?.providers.find(fields.upstream || fields.provider || "");
  if (oauth) {
    const started = await startSignIn(deps.signIn!, oauth, pending, fields);
    return "refused" in started ? form(pending, 400, started.refused) : { kind: "sign_in", ...started };
  }
  const parsed = parseConnectFields(fields);
  if (!parsed.ok) return form(pending, 400, parsed.message);
  const chosen = mailboxChoices(fields, pending);
  if (!chosen.ok) return form(pending, 400, chosen.message);
  const { access, sendPolicy, identities } = chosen.choices;
  const account: MailAccount = {
    ...parsed.account,
    requirePublicHosts: parsed.account.provider === "custom" && !deps.config.allowPrivateHosts,
  };
  const foreign = serverRefusal(deps.config.allowedMailboxes, account);
  if (foreign) return form(pending, 403, foreign);
  const login = await limitedLogin(deps, account, pending, clientIp);
  if (login.kind !== "verified") return login;
  await keepIdentities(deps, account, identities);
  return verified(deps, pending, fields, newMailbox(account, loginOf(account), access, sendPolicy, login));
}

/**
 * What the form set for the mailbox's identities, stored once its login is proven (null: the
 * fields were left empty, and what was set before stays). Per mailbox, not per grant: every
 * connection of this login sends as these (docs/design.md §3). The provider sign-in's callback
 * stores them too (src/oauth/provider-sign-in/callback.ts).
 */
export async function keepIdentities(deps: Pick<ConnectDeps, "identities">, account: MailAccount, settings: IdentitySettings | null): Promise<void> {
  if (settings && deps.identities) await deps.identities.set(deps.identities.keyOf(loginOf(account)), settings);
}


/**
 * The notice in the mailbox's own INBOX (docs/owner.md §6). Not awaited: the person's browser goes
 * back to the app without waiting for a second IMAP login, and a failure only loses the notice.
 */
function tellTheOwner(deps: Pick<ConnectDeps, "config" | "log" | "notify">, account: MailAccount, pending: PendingRequest, access: Access, sendPolicy: SendPolicy): void {
  if (!deps.notify) return;
  const info = {
    appHost: redirectHost(pending.redirectUri), access: access === "read" ? "read only" : "read and write",
    sendPolicy: access === "read" ? "cannot send" : SEND_POLICY_LABELS[sendPolicy], accountUrl: `${deps.config.baseUrl}/account`,
  };
  deps.notify(account, info).catch((err: unknown) => deps.log.warn("grant notice not saved", { error: err instanceof Error ? err.message : "unknown" }));
}

/**
 * A mailbox's login is verified: added to this request's mailboxes (`another=1`), or the connection
 * issued with them all (./several.ts). Shared by the password form and the OAuth sign-in callback.
 */
export async function verified(deps: Pick<ConnectDeps, "config" | "grants" | "events" | "log" | "collected" | "notify">, pending: PendingRequest,
  fields: ConnectFields, mailbox: NewMailbox): Promise<ConnectOutcome> {
  const step = await addMailbox(deps, pending, fields, mailbox);
  if (step.kind === "added") return { kind: "added", pending, connected: step.connected };
  if (step.kind === "refused") return form(pending, 400, step.message);
  return issueGrant(deps, pending, step.mailboxes);
}

/**
 * Seal the mailboxes into a new grant, issue its code, and send the browser back to the client
 * (RFC 6749 §4.1.2). The token's scope is the widest of its mailboxes'; the owner (whose older grants
 * a new connect replaces) is the first mailbox's login.
 */
export async function issueGrant(deps: Pick<ConnectDeps, "config" | "grants" | "events" | "log" | "notify">, pending: PendingRequest,
  mailboxes: readonly NewMailbox[]): Promise<ConnectOutcome> {
  const code = randomString(CODE_LENGTH);
  const clientId = pending.clientId ?? deps.config.clientId;
  const first = mailboxes[0]!;
  const owner = { clientId, login: first.login, keep: GRANTS_PER_LOGIN };
  const widest = mailboxes.some((m) => m.access === "read_write") ? "read_write" : "read";
  // What `mailbox-mcp grants` shows; the labels are sealed in the store (docs/owner.md).
  const info = { clientId, scope: scopeFor(widest), sendPolicy: first.sendPolicy, label: first.label, provider: first.provider };
  const replaced = await deps.grants.issueCode(code, pending, mailboxes, CODE_TTL_MS, owner, info);
  // The same path as /oauth/revoke: sessions, IMAP and SMTP connections of the old tokens close.
  await Promise.all(replaced.map((tokenId) => deps.events.emitRevoked(tokenId)));
  deps.log.info("mailbox connected", { provider: first.provider, mailboxes: mailboxes.length, replaced_grants: replaced.length });
  // Each mailbox's own INBOX gets the notice (docs/owner.md §6).
  for (const m of mailboxes) tellTheOwner(deps, decodeAccount(m.credentials), pending, m.access, m.sendPolicy);
  return { kind: "redirect", location: successRedirect(pending.redirectUri, code, pending.state, deps.config.baseUrl) };
}
