// The live IMAP login under the limits, shared by the setup form (./connect.ts), the owner's page's
// sign-in (../account/sign-in.ts) and a provider sign-in's callback: admitted first (failed logins
// and attempts per client, mailbox and login; logins at once on this instance), then the host policy,
// the login, and the verified login matched against MAILBOX_MCP_ALLOWED_MAILBOXES (docs/oauth.md §5, §10).
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import type { MailAccount } from "../../mail/account.ts";
import { MailError } from "../../mail/errors.ts";
import type { VerifyLogin } from "../../mail/imap/verify.ts";
import { accountHostProblem, type Resolver } from "../../mail/net/host-policy.ts";
import type { PendingRequest } from "../../store/pending.ts";
import { connectKeys, type Limiters, type Slot } from "../rate-limits/rate-limit.ts";
import { form, type ConnectOutcome, type Verified } from "./connect-outcome.ts";
import { mailboxRefusal, verifiedByLogin } from "./mailbox-policy.ts";

/** What the live login under the limits needs. */
export interface LoginDeps {
  config: Pick<Config, "allowPrivateHosts" | "allowedMailboxes">;
  /** Failed logins per client, mailbox and login; every mail-server attempt per client (limits.ts). */
  limits: Pick<Limiters, "connect-failures" | "connect-attempts">;
  /** Live IMAP checks running now on this instance, across all clients (a bound on this process's sockets). */
  inflight: { count: number };
  verify: VerifyLogin;
  log: Logger;
  resolve?: Resolver;
}


/** Live logins at once on this instance, across all clients: a bound on this process's sockets (docs/oauth.md §5). */
export const MAX_INFLIGHT_LOGINS = 16;

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
async function admit(deps: Pick<LoginDeps, "limits" | "inflight">, keys: string[], pending: PendingRequest): Promise<Admission | { refused: ConnectOutcome }> {
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
