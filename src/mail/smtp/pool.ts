// SMTP submission with nodemailer. One pooled transport per token, reused while the token keeps
// sending (a new TLS + AUTH handshake per message costs ~100s of ms at real providers), dropped
// after 5 idle minutes and at once when the token is revoked. Built once by the composition root,
// beside the IMAP pool; two services in one process share nothing.
import type { Transporter } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import type { MailAccount } from "../account.ts";
import { connectTarget, type ConnectTarget } from "../net/host-policy.ts";
import { addresses, isConnectionError, smtpError } from "./errors.ts";

export const SMTP_IDLE_MS = 5 * 60_000;

export interface SendResult {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

/** An already-built message (`raw`, without Bcc) and its envelope recipients (Bcc included). */
export interface OutgoingMessage {
  messageId: string;
  raw: Buffer;
  envelope: { from: string; to: string[] };
}

type Transport = Transporter<SMTPPool.SentMessageInfo>;

interface Entry {
  transport: Transport;
  /** What the transport logs in with: a changed password or a refreshed access token needs a new one. */
  fingerprint: string;
  timer: ReturnType<typeof setTimeout>;
}

/** tls: implicit TLS (465); starttls: upgrade required, never plain AUTH; none: plain (tests, LAN). */
function securityOptions(account: MailAccount) {
  switch (account.smtp.security) {
    case "tls": return { secure: true };
    case "starttls": return { secure: false, requireTLS: true };
    case "none": return { secure: false, ignoreTLS: true };
  }
}

/** nodemailer's login: AUTH PLAIN/LOGIN with a password, AUTH XOAUTH2 with an access token. */
function smtpAuth({ username: user, auth }: MailAccount) {
  return auth.kind === "password" ? { user, pass: auth.password } : { type: "OAuth2" as const, user, accessToken: auth.accessToken };
}

// Loaded with the first pool: nodemailer is ~12 MB RSS that a server nobody sends from does not need.
const loadNodemailer = async () => (await import("nodemailer")).default;

function createTransport(nodemailer: Awaited<ReturnType<typeof loadNodemailer>>, account: MailAccount, target: ConnectTarget, idleMs: number): Transport {
  return nodemailer.createTransport({
    pool: true,
    maxConnections: 2,
    idleTimeout: idleMs,
    host: target.host,
    ...(target.servername ? { servername: target.servername } : {}),
    port: account.smtp.port,
    ...securityOptions(account),
    auth: smtpAuth(account),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
    logger: false,
    debug: false,
  });
}

const fingerprintOf = (a: MailAccount) => JSON.stringify([a.smtp.host, a.smtp.port, a.smtp.security, a.username, a.auth]);

export class SmtpPool {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly idleMs = SMTP_IDLE_MS) {}

  /** Number of cached transports, for tests and health. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Sends `msg` over the token's transport. Resolves when the server accepted it for at least one
   * recipient; throws MailError otherwise.
   */
  async send(tokenId: string, account: MailAccount, msg: OutgoingMessage): Promise<SendResult> {
    try {
      const info = await (await this.transportFor(tokenId, account)).sendMail({ raw: msg.raw, envelope: msg.envelope });
      return { messageId: msg.messageId, accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
    } catch (err) {
      // A broken connection must not be reused for the next attempt.
      if (isConnectionError(err)) this.closeToken(tokenId);
      throw smtpError(err, account);
    }
  }

  private async transportFor(tokenId: string, account: MailAccount): Promise<Transport> {
    const fingerprint = fingerprintOf(account);
    let entry = this.entries.get(tokenId);
    if (entry && entry.fingerprint !== fingerprint) {
      this.closeToken(tokenId);
      entry = undefined;
    }
    if (!entry) {
      const nodemailer = await loadNodemailer();
      // Resolved and checked once per pool: its connections (≤ 5 idle minutes) reuse the checked address.
      const target = await connectTarget(account.smtp, account.requirePublicHosts ?? false);
      entry = this.entries.get(tokenId) ?? { transport: createTransport(nodemailer, account, target, this.idleMs), fingerprint, timer: setTimeout(() => {}, 0) };
      this.entries.set(tokenId, entry);
    }
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.closeToken(tokenId), this.idleMs);
    entry.timer.unref?.();
    return entry.transport;
  }

  /** Closes the token's SMTP connections (revocation, idle). Safe to call when there are none. */
  closeToken(tokenId: string): void {
    const entry = this.entries.get(tokenId);
    if (!entry) return;
    this.entries.delete(tokenId);
    clearTimeout(entry.timer);
    entry.transport.close();
  }

  /** Closes every pooled transport (server shutdown, end of a test run). */
  closeAll(): void {
    for (const id of [...this.entries.keys()]) this.closeToken(id);
  }
}
