// GET /oauth/upstream/callback without the HTTP (docs/design.md §5): the OAuth mail provider sends the
// browser back with a code (or an error); we exchange it (PKCE), learn the mailbox address, build the
// account, check a live IMAP login with the access token (docs/contract.md §14, item 5: no code before
// a live IMAP login) and only then issue the MCP code, exactly as the password form does. Every failure
// comes back on the setup form in words (errors.ts), never to the client's redirect.
import type { Clock } from "../../clock.ts";
import type { MailAccount } from "../../mail/account.ts";
import { learnAddress } from "./address.ts";
import { renewalFor } from "./lifetime.ts";
import type { OAuthProvider } from "./provider.ts";
import type { OAuthProviders } from "./registry.ts";
import { exchangeCode, type Fetch } from "./token-client.ts";
import { upstreamError, UpstreamError, type UpstreamErrorKind } from "./errors.ts";
import type { PendingRequest } from "../../store/pending.ts";
import type { UpstreamFlow, UpstreamFlows } from "../../store/upstream-flows.ts";
import { mailboxChoices } from "../setup/mailbox-choices.ts";
import type { ConnectFields } from "../setup/connect-form.ts";
import { form, keepIdentities, limitedLogin, loginOf, verified, type ConnectDeps, type ConnectOutcome } from "../setup/connect.ts";
import { newMailbox } from "../setup/several.ts";
import { callbackUrl } from "./start.ts";
import { verifiedSession, type AccountSignIn } from "../account/sign-in.ts";
import type { AccountSessions } from "../../store/account-sessions.ts";

export interface SignInCallbackDeps extends ConnectDeps {
  clock: Clock;
  providers: OAuthProviders;
  flows: UpstreamFlows;
  /** The provider's token and userinfo endpoints are called with it; tests may pass their own. */
  fetch?: Fetch;
  /** Sign-ins the owner's page started open its sessions (src/oauth/account/provider-start.ts); without it they are unknown. */
  account?: { sessions: AccountSessions; secretKey: Uint8Array };
}

/** What the provider's redirect carried (RFC 6749 §4.1.2, §4.1.2.1). */
export interface CallbackQuery {
  state?: string;
  code?: string;
  error?: string;
  error_description?: string;
  /** RFC 9207 §2: the issuer that sent this response, when it says. */
  iss?: string;
}

export type CallbackOutcome =
  | ConnectOutcome
  /** No sign-in under way by that state (expired, used, or never started here). */
  | { kind: "unknown" }
  /** The state is real but the browser is not the one that started it (RFC 9700 §4.7.1). */
  | { kind: "other_browser" }
  /** The owner's page started this sign-in: its session, or the reason for its sign-in form. */
  | { kind: "account"; result: AccountSignIn };

/** The outcome and the form fields to show again with it (ids from the sealed flow). */
export interface CallbackResult {
  outcome: CallbackOutcome;
  fields: ConnectFields;
}

/** A refusal from the provider on the form: the person's to fix (401), or the operator's / nobody's now (502). */
const STATUS: Record<UpstreamErrorKind, 401 | 502> = { refused: 401, lost: 401, misconfigured: 502, unavailable: 502 };

function asForm(pending: PendingRequest, err: unknown): ConnectOutcome {
  if (err instanceof UpstreamError) return form(pending, STATUS[err.kind], err.message);
  throw err;
}

/** The account a fresh sign-in opens, or the reason on the form. */
async function signedInAccount(deps: SignInCallbackDeps, p: OAuthProvider, flow: UpstreamFlow, code: string, now: number): Promise<MailAccount> {
  const tokens = await exchangeCode(p, code, flow.secrets.codeVerifier, callbackUrl(deps.config.baseUrl), deps.fetch);
  const renewal = renewalFor(tokens, now);
  if (!renewal) {
    throw new UpstreamError("misconfigured", `${p.name} gave this server no refresh token, so the mailbox would stop working within the hour. ` +
      "Whoever runs this server should check that the app asks for offline access (docs/oauth-providers.md).");
  }
  const email = await learnAddress(p, tokens, (flow.secrets.fields.email ?? "").trim(), deps.fetch);
  return {
    provider: p.id, email, username: email,
    auth: { kind: "oauth2", accessToken: tokens.accessToken, sasl: p.sasl, renewal },
    imap: { ...p.imap }, smtp: { ...p.smtp }, providerSavesSent: p.savesSent,
    // A file provider's hosts are the operator's choice, checked like custom hosts (docs/oauth.md §6).
    requirePublicHosts: p.fromFile && !deps.config.allowPrivateHosts,
  };
}

/** The live IMAP login with the token, worded for a sign-in; then the code. */
async function loginAndIssue(deps: SignInCallbackDeps, p: OAuthProvider, pending: PendingRequest, account: MailAccount, fields: ConnectFields, clientIp: string) {
  // The form's choices came along sealed in the flow row (./start.ts keeps every field but the secrets).
  const chosen = mailboxChoices(fields, pending);
  if (!chosen.ok) return form(pending, 400, chosen.message);
  const { access, sendPolicy, identities } = chosen.choices;
  const login = await limitedLogin(deps, account, pending, clientIp);
  if (login.kind === "form" && login.status === 401) {
    return form(pending, 401, `${p.name} signed you in as ${account.email}, but its mail server refused the IMAP login. ${p.imapRefusedHint}`);
  }
  if (login.kind !== "verified") return login;
  await keepIdentities(deps, account, identities);
  return verified(deps, pending, fields, newMailbox(account, loginOf(account), access, sendPolicy, login, p.name));
}

/**
 * RFC 9207 §2.4: the callback answers the provider that started this sign-in (the flow row names it),
 * never another. A provider that declares its issuer must send exactly it; an `iss` naming another
 * configured provider is refused whatever this one declares.
 */
export function issuerProblem(providers: OAuthProviders, p: OAuthProvider, iss: string | undefined): string | null {
  const refused = `The answer that came back is not from ${p.name}, where this sign-in started. Nothing was stored; sign in again.`;
  if (p.issuer !== null) return iss === p.issuer ? null : refused;
  if (iss === undefined) return null;
  return providers.list().some((o) => o.id !== p.id && o.issuer === iss) ? refused : null;
}

/**
 * A sign-in the owner's page started (the flow's sealed mode, never the query): the same checks and the
 * same live IMAP login with the token, then a page session instead of a grant. The provider's tokens
 * are used for that login only and go with this call (docs/owner.md §7).
 */
async function finishAccountSignIn(deps: SignInCallbackDeps, flow: UpstreamFlow, query: CallbackQuery, clientIp: string): Promise<AccountSignIn> {
  const p = deps.providers.find(flow.provider);
  const { account } = deps;
  if (!p || !account) return { kind: "form", status: 400, message: "This way of signing in is no longer offered here. Sign in again." };
  const mixUp = issuerProblem(deps.providers, p, query.iss);
  if (mixUp) return { kind: "form", status: 400, message: mixUp };
  try {
    if (query.error || !query.code) throw upstreamError(p.name, query.error || "invalid_request", query.error_description ?? null);
    const mailbox = await signedInAccount(deps, p, flow, query.code, deps.clock());
    const refused = `${p.name} signed you in as ${mailbox.email}, but its mail server refused the IMAP login. ${p.imapRefusedHint}`;
    return await verifiedSession({ ...deps, ...account, config: { ...deps.config, secretKey: account.secretKey } }, mailbox, clientIp, refused);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    deps.log.warn("provider sign-in failed", { provider: p.id, kind: err.kind, page: "account" });
    return { kind: "form", status: STATUS[err.kind], message: err.message };
  }
}

export async function finishSignIn(deps: SignInCallbackDeps, query: CallbackQuery, binding: string | null, clientIp: string): Promise<CallbackResult> {
  const taken = query.state ? await deps.flows.take(query.state, binding) : { kind: "unknown" as const };
  if (taken.kind !== "found") return { outcome: taken, fields: {} };
  const { flow } = taken;
  if (flow.secrets.mode === "account") return { outcome: { kind: "account", result: await finishAccountSignIn(deps, flow, query, clientIp) }, fields: {} };
  const fields: ConnectFields = { ...flow.secrets.fields, request_id: flow.secrets.requestId, csrf_token: flow.secrets.csrfToken };
  const pending = await deps.pending.get(flow.secrets.requestId);
  const p = deps.providers.find(flow.provider);
  if (!pending || !p) return { outcome: { kind: "expired" }, fields };
  const mixUp = issuerProblem(deps.providers, p, query.iss);
  if (mixUp) {
    deps.log.warn("provider sign-in refused: issuer", { provider: p.id });
    return { outcome: form(pending, 400, mixUp), fields };
  }
  if (query.error || !query.code) {
    const err = upstreamError(p.name, query.error || "invalid_request", query.error_description ?? null);
    return { outcome: asForm(pending, err), fields };
  }
  let account: MailAccount;
  try {
    account = await signedInAccount(deps, p, flow, query.code, deps.clock());
  } catch (err) {
    deps.log.warn("provider sign-in failed", { provider: p.id, kind: err instanceof UpstreamError ? err.kind : "error" });
    return { outcome: asForm(pending, err), fields };
  }
  const shown = { ...fields, email: account.email };
  return { outcome: await loginAndIssue(deps, p, pending, account, shown, clientIp), fields: shown };
}
