// POST /oauth/connect without the HTTP: the pending request, CSRF, input, whose mailboxes (a visitor's
// own server must be listed), rate limit, private hosts, the live IMAP login, whose mailboxes again (the
// verified login must be listed), then the authorization code (RFC 6749 §4.1.2). Statuses: docs/design.md §3.
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import { decodeAccount, type MailAccount } from "../../mail/account.ts";
import type { NewMailbox } from "../../store/grant-mailboxes.ts";
import { addMailbox, finishedMailboxes, newMailbox, type SeveralDeps } from "./several.ts";
import { MailError } from "../../mail/errors.ts";
import type { VerifyLogin } from "../../mail/imap/verify.ts";
import { randomString } from "../../store/crypto.ts";
import type { GrantStore } from "../../store/grants.ts";
import type { IdentitySettings, MailboxIdentities } from "../../store/mailbox-identities.ts";
import type { PendingRequest, PendingStore } from "../../store/pending.ts";
import { chooseAccess, scopeFor, type Access } from "./access.ts";
import { startSignIn, type SignInStartDeps } from "../provider-sign-in/start.ts";
import { parseConnectFields, type ConnectFields } from "./connect-form.ts";
import { chooseSendPolicy } from "./send-choice.ts";
import { parseIdentityFields } from "./identity-fields.ts";
import type { SendPolicy } from "../../send-policy.ts";
import type { SentMark } from "../../sent-mark.ts";
import { mailboxRefusal, serverRefusal, verifiedByLogin } from "./mailbox-policy.ts";
import { accountHostProblem, type Resolver } from "../../mail/net/host-policy.ts";
import { connectKeys, type Limiters, type Slot } from "../rate-limits/rate-limit.ts";
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

export interface ConnectDeps extends SeveralDeps {
  config: Pick<Config, "allowPrivateHosts" | "baseUrl" | "clientId" | "allowedMailboxes">;
  grants: GrantStore;
  pending: PendingStore;
  log: Logger;
  /** Failed logins per client, mailbox and login; every mail-server attempt per client (limits.ts). */
  limits: Pick<Limiters, "connect-failures" | "connect-attempts">;
  /** Live IMAP checks running now on this instance, across all clients (a bound on this process's sockets). */
  inflight: { count: number };
  verify: VerifyLogin;
  /** Revocation fan-out, for the grants a new connect replaces. */
  events: TokenEvents;
  resolve?: Resolver;
  /** Sign-in at OAuth mail providers (src/oauth/provider-sign-in/): a provider of theirs is sent there instead of a password login. */
  signIn?: SignInStartDeps;
  /** The INBOX notice of a new grant (src/mail/write/grant-notice.ts); absent with MAILBOX_MCP_NOTIFY_GRANTS=false. */
  notify?: NotifyGrant;
  /** The mailbox's send-as identities and signature, stored when the login succeeds (src/store/mailbox-identities.ts). */
  identities?: Pick<MailboxIdentities, "keyOf" | "set">;
}

/** What the live login under the limits needs: the setup form and the owner's page's sign-in (../account/sign-in.ts). */
export type LoginDeps = Pick<ConnectDeps, "config" | "limits" | "inflight" | "verify" | "log" | "resolve">;

/** Live logins at once on this instance, across all clients: a bound on this process's sockets (docs/oauth.md §5). */
export const MAX_INFLIGHT_LOGINS = 16;

export type ConnectOutcome =
  | { kind: "redirect"; location: string }
  /** To an OAuth mail provider's sign-in; `binding` is the secret of the cookie that ties its callback to this browser. */
  | { kind: "sign_in"; location: string; binding: string }
  | { kind: "expired" }
  | { kind: "forbidden" }
  | { kind: "form"; status: FormStatus; message: string; pending: PendingRequest; retryAfter?: number }
  /** The mailbox was added (`another=1`): the page lists `connected` and offers another or finish (./several.ts). */
  | { kind: "added"; pending: PendingRequest; connected: string[] };

/** A login that succeeded and passed the list: where \Sent stood then, for the grant (src/sent-mark.ts). */
export interface Verified {
  kind: "verified";
  sentMark?: SentMark;
}

/** 403: the mailbox, or the visitor's mail server, is not one this server may connect (docs/oauth.md §10). */
type FormStatus = 400 | 401 | 403 | 429 | 502 | 503;

export const form = (pending: PendingRequest, status: FormStatus, message: string, retryAfter?: number): ConnectOutcome =>
  ({ kind: "form", status, message, pending, retryAfter });

/** The slots one admitted attempt holds until it knows its outcome. */
interface Admission {
  failure: Slot;
  attempt: Slot;
}

const tooMany = (pending: PendingRequest, retryAfter: number) =>
  form(pending, 429, `Too many sign-in attempts. Wait ${Math.ceil(retryAfter / 60)} minutes, then try again.`, retryAfter);

/**
 * Whether this attempt may go to the mail server; if so its slots are taken now, before anything
 * is awaited. Checking first and counting after the login let 12 concurrent wrong passwords all
 * reach the mail server past a limit of 5.
 */
async function admit(deps: Pick<ConnectDeps, "limits" | "inflight">, keys: string[], pending: PendingRequest): Promise<Admission | { refused: ConnectOutcome }> {
  const failure = await deps.limits["connect-failures"].reserve(keys);
  if ("retryAfter" in failure) return { refused: tooMany(pending, failure.retryAfter) };
  const attempt = await deps.limits["connect-attempts"].reserve(keys.slice(0, 1));
  if ("retryAfter" in attempt) {
    await failure.release();
    return { refused: tooMany(pending, attempt.retryAfter) };
  }
  if (deps.inflight.count >= MAX_INFLIGHT_LOGINS) {
    await failure.release();
    await attempt.release();
    return { refused: form(pending, 503, "The server is busy checking other sign-ins. Try again in a few seconds.", 5) };
  }
  return { failure, attempt };
}

/**
 * The live IMAP login. Its failure slot is kept only when the server rejected the login; its
 * attempt slot is kept, since the attempt reached a mail server whatever the outcome.
 */
async function tryLogin(deps: LoginDeps, account: MailAccount, slots: Admission, pending: PendingRequest): Promise<ConnectOutcome | Verified> {
  try {
    const proof = await deps.verify(account);
    await slots.failure.release();
    // Only now is the login known to be real: the list is matched against the login the server
    // accepted, never the typed address nor a provider's claim about it.
    const refused = mailboxRefusal(deps.config.allowedMailboxes, verifiedByLogin(account, proof?.login));
    if (refused) deps.log.warn("mailbox not allowed", { provider: account.provider });
    return refused ? form(pending, 403, refused) : { kind: "verified", ...(proof ? { sentMark: proof.sentMark } : {}) };
  } catch (err) {
    if (!(err instanceof MailError) || err.kind !== "auth") await slots.failure.release();
    if (!(err instanceof MailError)) throw err;
    deps.log.warn("mailbox login failed", { provider: account.provider, kind: err.kind });
    return form(pending, err.kind === "auth" ? 401 : 502, err.message);
  }
}

/** The checks that need no mail server, then the login; the admission's slots are settled on every path. */
async function checkAndLogin(deps: LoginDeps, account: MailAccount, slots: Admission, pending: PendingRequest): Promise<ConnectOutcome | Verified> {
  const problem = await accountHostProblem(account, deps.config.allowPrivateHosts, deps.resolve);
  if (problem) {
    await slots.failure.release();
    await slots.attempt.release(); // never reached a mail server
    return form(pending, problem.reason === "unresolvable" ? 502 : 400, problem.message);
  }
  return tryLogin(deps, account, slots, pending);
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
  const access = chooseAccess(fields.access, pending.scope);
  if (!access.ok) return form(pending, 400, access.message);
  const send = chooseSendPolicy(fields.send, access.access);
  if (!send.ok) return form(pending, 400, send.message);
  const identities = parseIdentityFields(fields.send_as, fields.signature);
  if (!identities.ok) return form(pending, 400, identities.message);
  const account: MailAccount = {
    ...parsed.account,
    requirePublicHosts: parsed.account.provider === "custom" && !deps.config.allowPrivateHosts,
  };
  const foreign = serverRefusal(deps.config.allowedMailboxes, account);
  if (foreign) return form(pending, 403, foreign);
  const login = await limitedLogin(deps, account, pending, clientIp);
  if (login.kind !== "verified") return login;
  await keepIdentities(deps, account, identities.settings);
  return verified(deps, pending, fields, newMailbox(account, loginOf(account), access.access, send.policy, login));
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
 * The live login under the limits: admitted (failed logins and attempts per client, mailbox and
 * login; logins at once on this instance), checked — and the verified mailbox matched against
 * MAILBOX_MCP_ALLOWED_MAILBOXES — with its slots settled; "verified" when it succeeded. The sign-in
 * callback of an OAuth provider logs in through here too (src/oauth/provider-sign-in/callback.ts).
 */
export async function limitedLogin(deps: LoginDeps, account: MailAccount, pending: PendingRequest, clientIp: string): Promise<ConnectOutcome | Verified> {
  const keys = connectKeys(clientIp, { email: account.email, username: account.username, imapHost: account.imap.host });
  const admitted = await admit(deps, keys, pending);
  if ("refused" in admitted) return admitted.refused;
  deps.inflight.count++;
  try {
    return await checkAndLogin(deps, account, admitted, pending);
  } catch (err) {
    await admitted.failure.release();
    throw err;
  } finally {
    deps.inflight.count--;
  }
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
