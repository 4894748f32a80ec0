// Live credential check for the setup form (SPEC "Authentication" 5): open IMAP, log in, log out.
// Every failure becomes a MailError whose message a person can act on; the password never appears in it.
//
// The form must not work as a port scanner of the hosts a visitor types in (docs/oauth.md §6.3):
// a refused port, a silent one and an open port that is not IMAP all get one message, and for
// hosts checked public that answer also waits for the end of the budget, so its timing does not
// tell them apart either. TLS errors stay distinct: the person must learn to change the setting.
import { connectImap, hostNotFound } from "./connect.ts";
import { type MailAccount, type ServerEndpoint } from "../account.ts";
import { MailError, type MailErrorKind } from "../errors.ts";

export interface VerifyOptions {
  /** Budget for the whole attempt (connect, greeting, TLS, login). Default 15 s. */
  timeoutMs?: number;
  /**
   * Answer "could not be reached or did not answer" no earlier than the end of the budget.
   * Default: for accounts whose hosts must be public (the custom hosts of the setup form).
   */
  uniformTiming?: boolean;
}

export type VerifyLogin = (account: MailAccount, opts?: VerifyOptions) => Promise<void>;

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
    const failure = toMailError(err, account.imap, timeoutMs, account.provider);
    if ((opts.uniformTiming ?? account.requirePublicHosts ?? false) && NO_ANSWER.has(failure.kind)) {
      await Bun.sleep(Math.max(0, deadline - performance.now()));
    }
    throw failure;
  }
  // Logged in: that is the check. A failed or slow LOGOUT is harmless.
  const bye = setTimeout(() => client.close(), 2000);
  await client.logout().catch(() => {});
  clearTimeout(bye);
  client.close();
};

const TIMEOUT_CODES = new Set(["CONNECT_TIMEOUT", "GREETING_TIMEOUT", "UPGRADE_TIMEOUT", "ETIMEOUT", "ETIMEDOUT"]);
const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|EPROTO$)/;
// What OpenSSL/BoringSSL and Node say when the other end is not speaking TLS at all: it sent
// plain text (an IMAP/SMTP/SSH greeting, an HTTP error), or closed on our ClientHello.
const NOT_TLS = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST|UNKNOWN_PROTOCOL|wrong version number|before secure TLS connection was established/i;

interface ConnectErrorLike { code?: string; authenticationFailed?: boolean; tlsFailed?: boolean; message?: string }

/** The one answer for refused, unreachable, silent, closed, and open-but-not-IMAP. */
export function noAnswerMessage(ep: ServerEndpoint, timeoutMs: number): string {
  const s = Math.max(1, Math.round(timeoutMs / 1000));
  return `The mail server ${ep.host}:${ep.port} could not be reached or did not answer within ${s} second${s === 1 ? "" : "s"}. ` +
    "Check the host, port and security, then try again.";
}

function tlsError(e: ConnectErrorLike, where: string): MailError | null {
  const text = `${e.code ?? ""} ${e.message ?? ""}`;
  if (/self[- ]signed|unable to (get|verify)|certificate (has expired|is not yet valid)|altname|hostname\/IP/i.test(text)) {
    return new MailError("tls",
      `The certificate of ${where} is not trusted (self-signed, expired, or issued for another name). ` +
      `Use the host name the certificate was issued for; for a private CA, start mailbox-mcp with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.`);
  }
  if (NOT_TLS.test(text)) {
    return new MailError("tls",
      `A secure (TLS) connection to ${where} could not be established: the server does not speak TLS on this port ` +
      `(it answered in plain text or hung up). Choose STARTTLS for this port, or use the server's TLS port (993 for IMAP).`);
  }
  if (e.tlsFailed || (e.code && TLS_CODE.test(e.code)) || /\b(TLS|SSL|certificate)\b/i.test(e.message ?? "")) {
    return new MailError("tls",
      `A secure (TLS) connection to ${where} could not be established. Check the security setting (TLS or STARTTLS) and the port.`);
  }
  return null;
}

/**
 * Classify an imapflow / socket error (imapflow errors.d.ts: authenticationFailed, tlsFailed, code).
 * `provider` tells a host the person typed ("custom", the default) from a preset's built-in one.
 */
export function toMailError(err: unknown, ep: ServerEndpoint, timeoutMs = DEFAULT_TIMEOUT_MS, provider = "custom"): MailError {
  if (err instanceof MailError) return err;
  const e = (err ?? {}) as ConnectErrorLike;
  if (e.authenticationFailed) {
    return new MailError("auth",
      "The mail server rejected the email address or password. Use an app password (not your normal password) and check the address.");
  }
  // Before TLS: a deadline that passed during a TLS handshake is a silent server, not a TLS answer.
  if (e.code && TIMEOUT_CODES.has(e.code)) return new MailError("timeout", noAnswerMessage(ep, timeoutMs));
  const tls = tlsError(e, `${ep.host}:${ep.port}`);
  if (tls) return tls;
  if (e.code === "ENOTFOUND" || e.code === "EAI_AGAIN") {
    return hostNotFound(ep.host, provider, "Check the host name.");
  }
  return new MailError("unreachable", noAnswerMessage(ep, timeoutMs));
}
