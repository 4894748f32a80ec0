// Live credential check for the setup form (docs/contract.md §14, item 5): open IMAP, log in, log out.
// Every failure becomes a MailError whose message a person can act on; the password never appears in it.
//
// The form must not work as a port scanner of the hosts a visitor types in (docs/oauth.md §6.3):
// a refused port, a silent one and an open port that is not IMAP all get one message, and for
// hosts checked public that answer also waits for the end of the budget, so its timing does not
// tell them apart either. TLS errors stay distinct: the person must learn to change the setting.
import { connectImap } from "./connect.ts";
import { loginCheckError } from "./errors.ts";
import type { MailAccount } from "../account.ts";
import type { MailErrorKind } from "../errors.ts";
import { NO_SENT, type SentMark } from "../../sent-mark.ts";
import { takeSentMark } from "./sent-mark.ts";

export interface VerifyOptions {
  /** Budget for the whole attempt (connect, greeting, TLS, login). Default 15 s. */
  timeoutMs?: number;
  /**
   * Answer "could not be reached or did not answer" no earlier than the end of the budget.
   * Default: for accounts whose hosts must be public (the custom hosts of the setup form).
   */
  uniformTiming?: boolean;
}

/**
 * What a successful login proved and saw: the login name the server accepted (what the allowlist is
 * matched against, src/allowed-mailboxes.ts), and where \Sent stood (../../sent-mark.ts). A stub in
 * a test may return nothing: then the typed login counts and the mark is taken at the first send check.
 */
export interface LoginProof {
  login: string;
  sentMark: SentMark;
}

export type VerifyLogin = (account: MailAccount, opts?: VerifyOptions) => Promise<LoginProof | void>;

const DEFAULT_TIMEOUT_MS = 15_000;
/** Failures that carry the unified message and, with uniformTiming, wait for the budget. */
const NO_ANSWER = new Set<MailErrorKind>(["unreachable", "timeout"]);

export const verifyLogin: VerifyLogin = async (account, opts = {}) => {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  let client;
  try {
    client = await connectImap(account, { connectTimeoutMs: timeoutMs, socketTimeoutMs: timeoutMs });
  } catch (err) {
    const failure = loginCheckError(err, account.imap, timeoutMs, account.provider);
    if ((opts.uniformTiming ?? account.requirePublicHosts ?? false) && NO_ANSWER.has(failure.kind)) {
      await Bun.sleep(Math.max(0, deadline - performance.now()));
    }
    throw failure;
  }
  // Logged in: that is the check. The mark cannot fail the login: without one nothing in \Sent counts.
  const sentMark = await takeSentMark(client).catch(() => NO_SENT);
  // A failed or slow LOGOUT is harmless.
  const bye = setTimeout(() => client.close(), 2000);
  await client.logout().catch(() => {});
  clearTimeout(bye);
  client.close();
  return { login: account.username, sentMark };
};
