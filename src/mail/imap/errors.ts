// imapflow and socket errors in words a person can act on, for two audiences: the setup form's live
// login check (loginCheckError: the person is typing the settings; the form must not work as a port
// scanner, docs/oauth.md §6.3) and a tool call on a pooled connection (toMailError: the settings
// were good once; reconnecting the mailbox is the remedy). The password never appears in either.
import type { MailAccount, ServerEndpoint } from "../account.ts";
import { cleanLine } from "../content/sanitize.ts";
import { MailError } from "../errors.ts";
import { MAX_COMMAND_BYTES, RESPONSE_LIMITS } from "./response-limits.ts";

/** Codes imapflow and the socket use for a deadline that passed while connecting. */
const CONNECT_TIMEOUT = ["CONNECT_TIMEOUT", "GREETING_TIMEOUT", "UPGRADE_TIMEOUT", "ETIMEOUT", "ETIMEDOUT"];

const TIMEOUT = new Set([...CONNECT_TIMEOUT, "LockTimeout"]);
const TOO_LARGE = new Set(["LiteralTooLarge", "LineTooLarge", "ResponseTooLarge"]);
const NOT_FOUND = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME"]);
const DROPPED = new Set([
  "NoConnection", "EConnectionClosed", "ClosedAfterConnectText", "ClosedAfterConnectTLS",
  "ECONNRESET", "EPIPE", "ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "ECONNABORTED",
]);

interface ImapErrorLike { code?: string; authenticationFailed?: boolean; responseStatus?: string; responseText?: string; message?: string }

/** True when the connection went away under the command (worth one retry on a new connection). */
export function isDropped(err: unknown): boolean {
  const code = (err as ImapErrorLike)?.code;
  return code !== undefined && DROPPED.has(code) && code !== "ECONNREFUSED";
}

function isTls(e: ImapErrorLike): boolean {
  return /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(e.code ?? "") || /certificate|tls|ssl/i.test(e.message ?? "");
}

/**
 * DNS gave no address for a mail host. A custom host is the person's to fix (`customAdvice`); a
 * preset's host is built in, so the likely cause is this server's DNS or network, and saying
 * "check the host name" would send the person after something they cannot change.
 */
export function hostNotFound(host: string, provider: string | undefined, customAdvice: string): MailError {
  if (provider === undefined || provider === "custom") return new MailError("unreachable", `The mail server host ${host} could not be found. ${customAdvice}`);
  return new MailError("unreachable",
    `The mail server host ${host} could not be found from this server. The name is built in for this provider, so this ` +
    "server's DNS or network connection is the likely cause: try again in a few minutes; if it persists, whoever runs " +
    "this service should check its DNS resolver and internet access.");
}

/**
 * For a tool call on a pooled connection: maps an imapflow/socket error to a MailError; errors that
 * are not the mail server's pass through.
 */
export function toMailError(err: unknown, account: Pick<MailAccount, "imap"> & Partial<Pick<MailAccount, "provider" | "auth">> & { signedIn?: boolean },
  timeoutMs: number): unknown {
  if (err instanceof MailError || typeof err !== "object" || err === null) return err;
  const e = err as ImapErrorLike;
  const where = `${account.imap.host}:${account.imap.port}`;
  // Exchange accepts LOGIN and fails the next command so (imapflow checks it with NAMESPACE,
  // which pooled connections skip: ./client.ts).
  if (e.authenticationFailed || /User is authenticated but not connected/i.test(e.responseText ?? "")) {
    return new MailError("auth", account.signedIn ?? account.auth?.kind === "oauth2"
      ? "The mail server refused this mailbox's sign-in token (IMAP may have been turned off for the mailbox, or the sign-in withdrawn at the provider): reconnect the mailbox."
      : "The mail server rejected the stored password (it may have been changed or revoked): reconnect the mailbox with a new app password.");
  }
  if (e.code === "CommandTooLarge") {
    return new MailError("protocol", `The mail server ${where} sent more than ${MAX_COMMAND_BYTES / 1024 / 1024} MB in answer to one request, more than this server accepts for any tool, so it stopped reading and closed the connection. Ask for fewer messages (a smaller limit); if it keeps happening, the server is misbehaving.`);
  }
  if (e.code && TOO_LARGE.has(e.code)) {
    return new MailError("protocol", `The mail server ${where} sent a response larger than this server accepts (at most ${RESPONSE_LIMITS.maxLiteralSize / 1024 / 1024} MB), so the connection was closed. If the message is that large, read it in your mail program.`);
  }
  if (e.code && TIMEOUT.has(e.code)) {
    return new MailError("timeout", `The mail server ${where} did not answer within ${Math.round(timeoutMs / 1000)} s. Try again in a moment; if it keeps happening the server may be down.`);
  }
  if (e.code && NOT_FOUND.has(e.code)) {
    return hostNotFound(account.imap.host, account.provider, "Check the server name by reconnecting the mailbox.");
  }
  if (isTls(e)) {
    return new MailError("tls", `A secure (TLS) connection to ${where} failed: ${e.message ?? e.code}. Check the server's security setting by reconnecting the mailbox.`);
  }
  if (e.code && DROPPED.has(e.code)) {
    return new MailError("unreachable", `The connection to the mail server ${where} was lost or refused. Try again; if it keeps happening the server may be down.`);
  }
  if (e.responseStatus === "NO" || e.responseStatus === "BAD") {
    return new MailError("protocol", `The mail server refused the request: ${cleanLine(e.responseText ?? e.message ?? "no reason given")}.`);
  }
  if (typeof e.code === "string") {
    return new MailError("protocol", `The mail server connection failed (${e.code}). Try again; if it keeps happening reconnect the mailbox.`);
  }
  return err;
}

// The setup form's login check.

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
export function loginCheckError(err: unknown, ep: ServerEndpoint, timeoutMs: number, provider = "custom"): MailError {
  if (err instanceof MailError) return err;
  const e = (err ?? {}) as ConnectErrorLike;
  if (e.authenticationFailed) {
    return new MailError("auth",
      "The mail server rejected the email address or password. Use an app password (not your normal password) and check the address.");
  }
  // Before TLS: a deadline that passed during a TLS handshake is a silent server, not a TLS answer.
  if (e.code && CONNECT_TIMEOUT.includes(e.code)) return new MailError("timeout", noAnswerMessage(ep, timeoutMs));
  const tls = tlsError(e, `${ep.host}:${ep.port}`);
  if (tls) return tls;
  if (e.code === "ENOTFOUND" || e.code === "EAI_AGAIN") {
    return hostNotFound(ep.host, provider, "Check the host name.");
  }
  return new MailError("unreachable", noAnswerMessage(ep, timeoutMs));
}
