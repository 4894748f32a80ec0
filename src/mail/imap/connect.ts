// Opening one IMAP connection for a MailAccount (its errors are worded in ./errors.ts).
import type { ImapFlow } from "imapflow";
import { createImapClient, type ViewTracking } from "./client.ts";
import { connectTarget, type ConnectTarget } from "../net/host-policy.ts";
import type { MailAccount } from "../account.ts";
import { toMailError } from "./errors.ts";
import { RESPONSE_LIMITS } from "./response-limits.ts";
import { earlyPlan } from "./early-plan.ts";
import { ExamineLost } from "./early-session.ts";
import { serverKey, type ServerFacts, type ServerMemory } from "./server-facts.ts";

export interface ImapTimeouts {
  /** TCP connect + greeting + login, in all. */
  connectTimeoutMs: number;
  /** Socket inactivity before imapflow gives up on the connection. */
  socketTimeoutMs: number;
}

/** What the pool knows when it opens a connection: the servers seen so far, the folder its first call reads. */
export interface OpenHints {
  memory?: ServerMemory;
  /** A folder path the first call EXAMINEs: sent in the connection's first turn (./early-session.ts). */
  examine?: string | null;
  /** EarlyPlan.lostMs (tests shorten it). */
  examineLostMs?: number;
  /** The first call's newest page, fetched behind the EXAMINE from a remembered start (./early-prefetch.ts). */
  prefetch?: { items: string; low: number; span: number } | null;
  noteNewest?: ViewTracking["noteNewest"];
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
export async function connectImap(account: MailAccount, t: ImapTimeouts = DEFAULT_TIMEOUTS, probeAfterLogin = true, hints: OpenHints = {}): Promise<ImapFlow & ViewTracking> {
  const target = await connectTarget(account.imap, account.requirePublicHosts ?? false);
  const sasl = account.auth.kind === "oauth2" ? account.auth.sasl : undefined;
  const options = imapOptions(account, t, target);
  const key = serverKey(account.imap);
  // The setup form's check waits for every answer (probeAfterLogin): it must say which step failed.
  const early = probeAfterLogin ? null : earlyPlan({
    auth: options.auth, security: account.imap.security, facts: hints.memory?.get(key) ?? null, examine: hints.examine ?? null,
    lostMs: hints.examineLostMs, sasl, host: options.servername ?? options.host, port: options.port, prefetch: hints.prefetch,
  });
  const learn = (facts: Partial<ServerFacts>) => hints.memory?.note(key, facts);
  const client = await createImapClient(options, { probeAfterLogin, sasl, early, learn, noteNewest: hints.noteNewest });
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
    // The server lost the EXAMINE written behind LOGIN (now noted): once more, without it.
    if (err instanceof ExamineLost) return connectImap(account, t, probeAfterLogin, { ...hints, examine: null, prefetch: null });
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** A logged-in client for the pool, or a MailError worded for a tool result. */
export async function openImap(account: MailAccount, t: ImapTimeouts = DEFAULT_TIMEOUTS, hints: OpenHints = {}): Promise<ImapFlow> {
  try {
    return await connectImap(account, t, false, hints);
  } catch (err) {
    throw toMailError(err, account, t.connectTimeoutMs);
  }
}
