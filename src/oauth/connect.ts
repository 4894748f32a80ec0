// POST /oauth/connect without the HTTP: the pending request, CSRF, input, rate limit, private hosts,
// the live IMAP login, then the authorization code (RFC 6749 §4.1.2). Statuses: DESIGN §3.
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import { MailError, encodeAccount, type MailAccount } from "../mail/types.ts";
import type { VerifyLogin } from "../mail/verify.ts";
import { randomString } from "../store/crypto.ts";
import type { GrantStore, PendingRequest } from "../store/grants.ts";
import { parseConnectFields, type ConnectFields } from "./connect-form.ts";
import { checkPublicHost, type Resolver } from "../mail/public-hosts.ts";
import { connectKeys, type Limiter, type Slot } from "./rate-limit.ts";
import { successRedirect } from "./redirects.ts";

export const CODE_LENGTH = 48; // SPEC "Authorization code"
export const CODE_TTL_MS = 5 * 60_000;

export interface ConnectDeps {
  config: Config;
  grants: GrantStore;
  log: Logger;
  /** Failed logins: 5 per 15 minutes per client, mailbox and login (DESIGN §3). */
  limiter: Limiter;
  /** Every mail-server attempt per client, whatever its outcome (ATTEMPT_LIMIT). */
  attempts: Limiter;
  /** Live IMAP checks running now, across all clients. */
  inflight: { count: number };
  verify: VerifyLogin;
  resolve?: Resolver;
}

/**
 * Beyond the failed-login limit: each attempt opens a connection to a host the visitor chose, so
 * an unauthenticated visitor must not make this server a port scanner or a connection flood.
 */
export const ATTEMPT_LIMIT = { max: 30, windowMs: 15 * 60_000 };
export const MAX_INFLIGHT_LOGINS = 16;

export type ConnectOutcome =
  | { kind: "redirect"; location: string }
  | { kind: "expired" }
  | { kind: "forbidden" }
  | { kind: "form"; status: 400 | 401 | 429 | 502 | 503; message: string; pending: PendingRequest; retryAfter?: number };

const form = (pending: PendingRequest, status: 400 | 401 | 429 | 502 | 503, message: string, retryAfter?: number): ConnectOutcome =>
  ({ kind: "form", status, message, pending, retryAfter });

/** DESIGN §5: custom hosts on private, loopback or link-local addresses are refused unless allowed. */
async function privateHostProblem(deps: ConnectDeps, account: MailAccount): Promise<{ status: 400 | 502; message: string } | null> {
  if (account.provider !== "custom" || deps.config.allowPrivateHosts) return null;
  for (const host of new Set([account.imap.host, account.smtp.host])) {
    const check = await checkPublicHost(host, deps.resolve);
    if (check.ok) continue;
    if (check.reason === "unresolvable") return { status: 502, message: `The mail server host ${host} could not be found. Check the host name.` };
    return {
      status: 400,
      message: `${host} is on a private network address, which this service does not connect to. ` +
        `If it is your own mail server, the operator can allow it with MAILBOX_MCP_ALLOW_PRIVATE_HOSTS=true.`,
    };
  }
  return null;
}

/**
 * Security "none" sends the password in clear. Allowed only where private hosts are (a homelab
 * server on the operator's own network); towards the internet TLS or STARTTLS is required.
 */
function plaintextProblem(deps: ConnectDeps, account: MailAccount): string | null {
  if (account.provider !== "custom" || deps.config.allowPrivateHosts) return null;
  if (account.imap.security !== "none" && account.smtp.security !== "none") return null;
  return "Unencrypted connections (security \"none\") would send your password in clear over the internet. " +
    "Choose TLS or STARTTLS for both IMAP and SMTP.";
}

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
function admit(deps: ConnectDeps, keys: string[], pending: PendingRequest): Admission | { refused: ConnectOutcome } {
  const failure = deps.limiter.reserve(keys);
  if ("retryAfter" in failure) return { refused: tooMany(pending, failure.retryAfter) };
  const attempt = deps.attempts.reserve(keys.slice(0, 1));
  if ("retryAfter" in attempt) {
    failure.release();
    return { refused: tooMany(pending, attempt.retryAfter) };
  }
  if (deps.inflight.count >= MAX_INFLIGHT_LOGINS) {
    failure.release();
    attempt.release();
    return { refused: form(pending, 503, "The server is busy checking other sign-ins. Try again in a few seconds.", 5) };
  }
  return { failure, attempt };
}

/**
 * The live IMAP login. Its failure slot is kept only when the server rejected the login; its
 * attempt slot is kept, since the attempt reached a mail server whatever the outcome.
 */
async function tryLogin(deps: ConnectDeps, account: MailAccount, slots: Admission, pending: PendingRequest): Promise<ConnectOutcome | null> {
  try {
    await deps.verify(account);
    slots.failure.release();
    return null;
  } catch (err) {
    if (!(err instanceof MailError) || err.kind !== "auth") slots.failure.release();
    if (!(err instanceof MailError)) throw err;
    deps.log.warn("mailbox login failed", { provider: account.provider, kind: err.kind });
    return form(pending, err.kind === "auth" ? 401 : 502, err.message);
  }
}

/** The checks that need no mail server, then the login; the admission's slots are settled on every path. */
async function checkAndLogin(deps: ConnectDeps, account: MailAccount, slots: Admission, pending: PendingRequest): Promise<ConnectOutcome | null> {
  const clear = plaintextProblem(deps, account);
  const hostProblem = clear ? null : await privateHostProblem(deps, account);
  if (clear || hostProblem) {
    slots.failure.release();
    slots.attempt.release(); // never reached a mail server
    return clear ? form(pending, 400, clear) : form(pending, hostProblem!.status, hostProblem!.message);
  }
  return tryLogin(deps, account, slots, pending);
}

export async function connectMailbox(deps: ConnectDeps, fields: ConnectFields, clientIp: string): Promise<ConnectOutcome> {
  const pending = fields.request_id ? deps.grants.getPending(fields.request_id) : null;
  if (!pending) return { kind: "expired" };
  if (!fields.csrf_token || !deps.grants.csrfMatches(pending, fields.csrf_token)) return { kind: "forbidden" };
  const parsed = parseConnectFields(fields);
  if (!parsed.ok) return form(pending, 400, parsed.message);
  const account: MailAccount = {
    ...parsed.account,
    requirePublicHosts: parsed.account.provider === "custom" && !deps.config.allowPrivateHosts,
  };
  const keys = connectKeys(clientIp, { email: account.email, username: account.username, imapHost: account.imap.host });
  const admitted = admit(deps, keys, pending);
  if ("refused" in admitted) return admitted.refused;
  deps.inflight.count++;
  let failed: ConnectOutcome | null;
  try {
    failed = await checkAndLogin(deps, account, admitted, pending);
  } catch (err) {
    admitted.failure.release();
    throw err;
  } finally {
    deps.inflight.count--;
  }
  if (failed) return failed;
  const code = randomString(CODE_LENGTH);
  await deps.grants.issueCode(code, pending, encodeAccount(account), CODE_TTL_MS);
  deps.log.info("mailbox connected", { provider: account.provider });
  return { kind: "redirect", location: successRedirect(pending.redirectUri, code, pending.state, deps.config.baseUrl) };
}
