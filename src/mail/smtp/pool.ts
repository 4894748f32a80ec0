// SMTP submission with nodemailer. One pooled transport per token, reused while the token keeps
// sending (a new TLS + AUTH handshake per message costs ~100s of ms at real providers), dropped
// after 5 idle minutes and at once when the token is revoked.
import type { Transporter } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import { connectTarget, type ConnectTarget } from "../net/host-policy.ts";
import { type MailAccount } from "../account.ts";
import { addresses, isConnectionError, smtpError } from "./errors.ts";

export const SMTP_IDLE_MS = 5 * 60_000;

export interface SendResult {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

type Transport = Transporter<SMTPPool.SentMessageInfo>;

interface Entry {
  transport: Transport;
  /** What the transport was opened with: see smtpAccount. */
  account: MailAccount;
  fingerprint: string;
  timer: ReturnType<typeof setTimeout>;
}

const pools = new Map<string, Entry>();

/** tls: implicit TLS (465); starttls: upgrade required, never plain AUTH; none: plain (tests, LAN). */
function securityOptions(account: MailAccount) {
  switch (account.smtp.security) {
    case "tls": return { secure: true };
    case "starttls": return { secure: false, requireTLS: true };
    case "none": return { secure: false, ignoreTLS: true };
  }
}

// Loaded with the first pool: nodemailer is ~12 MB RSS that a server nobody sends from does not need.
const loadNodemailer = async () => (await import("nodemailer")).default;

function createPool(nodemailer: Awaited<ReturnType<typeof loadNodemailer>>, account: MailAccount, target: ConnectTarget): Transport {
  return nodemailer.createTransport({
    pool: true,
    maxConnections: 2,
    idleTimeout: SMTP_IDLE_MS,
    host: target.host,
    ...(target.servername ? { servername: target.servername } : {}),
    port: account.smtp.port,
    ...securityOptions(account),
    auth: { user: account.username, pass: account.password },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
    logger: false,
    debug: false,
  });
}

// Credentials behind a token never change, but a cache keyed only by token id must not hand one
// mailbox's connection to another should that ever stop being true.
const fingerprintOf = (a: MailAccount) => JSON.stringify([a.smtp.host, a.smtp.port, a.smtp.security, a.username, a.password]);

async function transportFor(tokenId: string, account: MailAccount): Promise<Transport> {
  const fingerprint = fingerprintOf(account);
  let entry = pools.get(tokenId);
  if (entry && entry.fingerprint !== fingerprint) {
    closeSmtp(tokenId);
    entry = undefined;
  }
  if (!entry) {
    const nodemailer = await loadNodemailer();
    // Resolved and checked once per pool: its connections (≤ 5 idle minutes) reuse the checked address.
    const target = await connectTarget(account.smtp, account.requirePublicHosts ?? false);
    entry = pools.get(tokenId) ?? { transport: createPool(nodemailer, account, target), account, fingerprint, timer: setTimeout(() => {}, 0) };
    pools.set(tokenId, entry);
  }
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => closeSmtp(tokenId), SMTP_IDLE_MS);
  entry.timer.unref?.();
  return entry.transport;
}

/** Closes the token's SMTP connections (revocation, idle). Safe to call when there are none. */
export function closeSmtp(tokenId: string): void {
  const entry = pools.get(tokenId);
  if (!entry) return;
  pools.delete(tokenId);
  clearTimeout(entry.timer);
  entry.transport.close();
}

/** Closes every pooled SMTP transport (server shutdown, end of a test run). */
export function closeAllSmtp(): void {
  for (const id of [...pools.keys()]) closeSmtp(id);
}

/**
 * The account the token's live transport was opened with, if there is one. Its credentials stay in
 * memory for the transport's life anyway (nodemailer logs in again with them), so callers reuse
 * them rather than unseal the grant on every send (~0.3 ms per call on the bench server).
 */
export const smtpAccount = (tokenId: string): MailAccount | undefined => pools.get(tokenId)?.account;

/** Number of cached transports, for tests and health. */
export const smtpPoolSize = () => pools.size;

/**
 * Sends an already-built message (`raw`, without Bcc) to the envelope recipients. Resolves when the
 * server accepted it for at least one recipient; throws MailError otherwise.
 */
export async function sendRaw(
  tokenId: string,
  account: MailAccount,
  msg: { messageId: string; raw: Buffer; envelope: { from: string; to: string[] } },
): Promise<SendResult> {
  try {
    const info = await (await transportFor(tokenId, account)).sendMail({ raw: msg.raw, envelope: msg.envelope });
    return { messageId: msg.messageId, accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
  } catch (err) {
    // A broken connection must not be reused for the next attempt.
    if (isConnectionError(err)) closeSmtp(tokenId);
    throw smtpError(err, account);
  }
}
