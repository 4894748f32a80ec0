// Opening one IMAP connection for a MailAccount, and turning imapflow's errors into MailErrors
// whose message says what happened and what the user can do about it.
import type { ImapFlow } from "imapflow";
import { createImapClient, type ViewTracking } from "./client.ts";
import { connectTarget, type ConnectTarget } from "../net/host-policy.ts";
import { cleanLine } from "../content/sanitize.ts";
import { type MailAccount } from "../account.ts";
import { MailError } from "../errors.ts";

export interface ImapTimeouts {
  /** TCP connect + greeting + login, in all. */
  connectTimeoutMs: number;
  /** Socket inactivity before imapflow gives up on the connection. */
  socketTimeoutMs: number;
}

export const DEFAULT_TIMEOUTS: ImapTimeouts = { connectTimeoutMs: 15_000, socketTimeoutMs: 6 * 60_000 };

/**
 * What one server response may hold. imapflow's defaults (1 GiB per literal, 2 GiB per response)
 * let any server a user names fill our memory: a 50 MB subject once took RSS from 126 to 535 MB.
 * The largest literal a tool asks for is a message's first 4 MB (get_email) or one part of at most
 * 16 MB (get_attachment); a line without literals is a SEARCH or an ENVELOPE with many addresses.
 */
export const RESPONSE_LIMITS = {
  maxLiteralSize: 20 * 1024 * 1024,
  maxResponseSize: 24 * 1024 * 1024,
  maxLineLength: 4 * 1024 * 1024,
};

export function imapOptions(account: MailAccount, t: ImapTimeouts, target: ConnectTarget = { host: account.imap.host }) {
  const { port, security } = account.imap;
  return {
    host: target.host,
    ...(target.servername ? { servername: target.servername } : {}),
    port,
    secure: security === "tls",
    doSTARTTLS: security === "starttls" ? true : security === "none" ? false : undefined,
    auth: { user: account.username, pass: account.password },
    logger: false as const, // pino to stdout otherwise (STACK-NOTES)
    // Auto-IDLE would put a DONE round trip in front of every command on a warm pooled connection.
    disableAutoIdle: true,
    connectionTimeout: t.connectTimeoutMs,
    greetingTimeout: t.connectTimeoutMs,
    socketTimeout: t.socketTimeoutMs,
    ...RESPONSE_LIMITS,
  };
}

/**
 * A logged-in client; errors are imapflow's own (callers classify them for their audience). An
 * `error` listener is attached before connecting: an EventEmitter error without a listener would
 * throw and take the process down.
 */
export async function connectImap(account: MailAccount, t: ImapTimeouts = DEFAULT_TIMEOUTS, probeAfterLogin = true): Promise<ImapFlow & ViewTracking> {
  const target = await connectTarget(account.imap, account.requirePublicHosts ?? false);
  const client = await createImapClient(imapOptions(account, t, target), { probeAfterLogin });
  client.on("error", () => {}); // reported through the failing call instead
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("connect timeout"), { code: "CONNECT_TIMEOUT" })), t.connectTimeoutMs);
  });
  try {
    await Promise.race([client.connect(), deadline]);
    return client;
  } catch (err) {
    client.close();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** A logged-in client for the pool, or a MailError worded for a tool result. */
export async function openImap(account: MailAccount, t: ImapTimeouts = DEFAULT_TIMEOUTS): Promise<ImapFlow> {
  try {
    return await connectImap(account, t, false);
  } catch (err) {
    throw toMailError(err, account, t.connectTimeoutMs);
  }
}

const TIMEOUT = new Set(["CONNECT_TIMEOUT", "GREETING_TIMEOUT", "UPGRADE_TIMEOUT", "ETIMEOUT", "ETIMEDOUT", "LockTimeout"]);
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

/** Maps an imapflow/socket error to a MailError; errors that are not the mail server's pass through. */
export function toMailError(err: unknown, account: Pick<MailAccount, "imap"> & Partial<Pick<MailAccount, "provider">>, timeoutMs: number): unknown {
  if (err instanceof MailError || typeof err !== "object" || err === null) return err;
  const e = err as ImapErrorLike;
  const where = `${account.imap.host}:${account.imap.port}`;
  // Exchange accepts LOGIN and fails the next command so (imapflow checks it with NAMESPACE,
  // which pooled connections skip: ./imap-client.ts).
  if (e.authenticationFailed || /User is authenticated but not connected/i.test(e.responseText ?? "")) {
    return new MailError("auth", "The mail server rejected the stored password (it may have been changed or revoked): reconnect the mailbox with a new app password.");
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
