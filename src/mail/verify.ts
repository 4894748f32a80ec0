// Live credential check for the setup form (SPEC "Authentication" 5): open IMAP, log in, log out.
// Every failure becomes a MailError whose message a person can act on; the password never appears in it.
import { connectImap } from "./imap-connect.ts";
import { MailError, type MailAccount, type ServerEndpoint } from "./types.ts";

export interface VerifyOptions {
  /** Budget for the whole attempt (connect, greeting, TLS, login). Default 15 s. */
  timeoutMs?: number;
}

export type VerifyLogin = (account: MailAccount, opts?: VerifyOptions) => Promise<void>;

const DEFAULT_TIMEOUT_MS = 15_000;

export const verifyLogin: VerifyLogin = async (account, opts = {}) => {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let client;
  try {
    client = await connectImap(account, { connectTimeoutMs: timeoutMs, socketTimeoutMs: timeoutMs });
  } catch (err) {
    throw toMailError(err, account.imap);
  }
  // Logged in: that is the check. A failed or slow LOGOUT is harmless.
  const bye = setTimeout(() => client.close(), 2000);
  await client.logout().catch(() => {});
  clearTimeout(bye);
  client.close();
};

const TIMEOUT_CODES = new Set(["CONNECT_TIMEOUT", "GREETING_TIMEOUT", "UPGRADE_TIMEOUT", "ETIMEOUT", "ETIMEDOUT"]);
const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|EPROTO$)/;

/** Classify an imapflow / socket error (imapflow errors.d.ts: authenticationFailed, tlsFailed, code). */
export function toMailError(err: unknown, ep: ServerEndpoint): MailError {
  if (err instanceof MailError) return err;
  const e = (err ?? {}) as { code?: string; authenticationFailed?: boolean; tlsFailed?: boolean; message?: string };
  const where = `${ep.host}:${ep.port}`;
  if (e.authenticationFailed) {
    return new MailError("auth",
      "The mail server rejected the email address or password. Use an app password (not your normal password) and check the address.");
  }
  if (e.code && TIMEOUT_CODES.has(e.code)) {
    return new MailError("timeout", `The mail server ${where} did not answer in time. Check the host, port and security, then try again.`);
  }
  if (/self[- ]signed|unable to (get|verify)|certificate (has expired|is not yet valid)|altname|hostname\/IP/i.test(`${e.code ?? ""} ${e.message ?? ""}`)) {
    return new MailError("tls",
      `The certificate of ${where} is not trusted (self-signed, expired, or issued for another name). ` +
      `Use the host name the certificate was issued for; for a private CA, start mailbox-mcp with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.`);
  }
  if (e.tlsFailed || (e.code && TLS_CODE.test(e.code)) || /\b(TLS|SSL|certificate)\b/i.test(e.message ?? "")) {
    return new MailError("tls",
      `A secure (TLS) connection to ${where} could not be established. Check the security setting (TLS or STARTTLS) and the port.`);
  }
  if (e.code === "ENOTFOUND" || e.code === "EAI_AGAIN") {
    return new MailError("unreachable", `The mail server host ${ep.host} could not be found. Check the host name.`);
  }
  return new MailError("unreachable",
    `The mail server ${where} could not be reached. Check the host, port and security, then try again.`);
}
