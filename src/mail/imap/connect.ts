// Opening one IMAP connection for a MailAccount (its errors are worded in ./errors.ts).
import type { ImapFlow } from "imapflow";
import { createImapClient, type ViewTracking } from "./client.ts";
import { connectTarget, type ConnectTarget } from "../net/host-policy.ts";
import type { MailAccount } from "../account.ts";
import { toMailError } from "./errors.ts";
import { RESPONSE_LIMITS } from "./response-limits.ts";

export interface ImapTimeouts {
  /** TCP connect + greeting + login, in all. */
  connectTimeoutMs: number;
  /** Socket inactivity before imapflow gives up on the connection. */
  socketTimeoutMs: number;
}

export const DEFAULT_TIMEOUTS: ImapTimeouts = { connectTimeoutMs: 15_000, socketTimeoutMs: 6 * 60_000 };

/** imapflow's login: LOGIN with a password, or AUTHENTICATE OAUTHBEARER / XOAUTH2 with a token. */
function imapAuth({ username: user, auth }: MailAccount) {
  return auth.kind === "password" ? { user, pass: auth.password } : { user, accessToken: auth.accessToken };
}

export function imapOptions(account: MailAccount, t: ImapTimeouts, target: ConnectTarget = { host: account.imap.host }) {
  const { port, security } = account.imap;
  return {
    host: target.host,
    ...(target.servername ? { servername: target.servername } : {}),
    port,
    secure: security === "tls",
    doSTARTTLS: security === "starttls" ? true : security === "none" ? false : undefined,
    auth: imapAuth(account),
    logger: false as const, // imapflow logs every command to stdout through pino otherwise
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
  const sasl = account.auth.kind === "oauth2" ? account.auth.sasl : undefined;
  const client = await createImapClient(imapOptions(account, t, target), { probeAfterLogin, sasl });
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
