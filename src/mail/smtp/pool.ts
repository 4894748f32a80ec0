// SMTP submission with nodemailer. One pooled transport per token, reused while the token keeps
// sending (a new TLS + AUTH handshake per message costs ~100s of ms at real providers), dropped
// after 5 idle minutes and at once when the token is revoked. Built once by the composition root,
// beside the IMAP pool; two services in one process share nothing.
//
// Revocation stops a send (docs/decisions.md "/mcp"): once this process knows a
// token is revoked, none of its messages may reach the SMTP server. Closing the pool alone did not do
// it: nodemailer lets a connection that is delivering finish first, and the message arrived 178 ms
// after the client was told "revoked". So every send carries an AbortSignal that revoke() fires:
// nodemailer then closes the connection delivering it at once and writes nothing more on it, or takes
// the message out of the pool's queue. nodemailer pipelines (RFC 2920) MAIL FROM, RCPT TO and the DATA
// command in one write before any reply, so a revocation that lands while the server answers the
// envelope finds DATA sent already, but not one byte of the message follows it, nor the final dot,
// and the server delivers nothing; a message being transmitted is cut before its final dot. A send
// that reaches us after the revocation (its call was already running) is refused before it reaches
// a transport.
import type { Transporter } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import type { Clock } from "../../clock.ts";
import type { MailAccount } from "../account.ts";
import { MailError } from "../errors.ts";
import { connectTarget, type ConnectTarget } from "../net/host-policy.ts";
import { addresses, isConnectionError, smtpError } from "./errors.ts";

export const SMTP_IDLE_MS = 5 * 60_000;

/**
 * How long a revoked token is remembered: longer than any call can still be running (the call
 * limit's queue, a 60 s IMAP operation, nodemailer's 15 s connect and 30 s socket timeouts).
 */
const REVOKED_KEPT_MS = 60 * 60_000;

const revokedError = () => new MailError("auth",
  "The access token was revoked while this message was being sent: the connection to the SMTP server was closed before it took the message, so it was not sent. Reconnect the mailbox.");

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
  /** Sends in progress, per token: revoke() aborts them. */
  private readonly sending = new Map<string, Set<AbortController>>();
  /** Tokens revoked while this process ran, and when (kept REVOKED_KEPT_MS). */
  private readonly revoked = new Map<string, number>();

  constructor(private readonly idleMs = SMTP_IDLE_MS, private readonly clock: Clock = Date.now) {}

  /** Number of cached transports, for tests and health. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Sends `msg` over the token's transport. Resolves when the server accepted it for at least one
   * recipient; throws MailError otherwise (a revoked token's send: before any byte, or cut before the message).
   */
  async send(tokenId: string, account: MailAccount, msg: OutgoingMessage): Promise<SendResult> {
    if (this.revoked.has(tokenId)) throw revokedError();
    const stop = new AbortController();
    const mine = this.sending.get(tokenId) ?? new Set<AbortController>();
    mine.add(stop);
    this.sending.set(tokenId, mine);
    try {
      const transport = await this.transportFor(tokenId, account);
      const info = await transport.sendMail({ raw: msg.raw, envelope: msg.envelope, signal: stop.signal });
      return { messageId: msg.messageId, accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
    } catch (err) {
      if (stop.signal.aborted || this.revoked.has(tokenId)) throw revokedError();
      // A broken connection must not be reused for the next attempt.
      if (isConnectionError(err)) this.closeToken(tokenId);
      throw smtpError(err, account, msg.envelope.from);
    } finally {
      mine.delete(stop);
      if (!mine.size && this.sending.get(tokenId) === mine) this.sending.delete(tokenId);
    }
  }

  /**
   * The token was revoked: its sends in progress are stopped before their message goes out (their
   * connections closed at once), later ones refused, and its transport closed, delivering connections included.
   */
  revoke(tokenId: string): void {
    const now = this.clock();
    for (const [id, at] of this.revoked) if (now - at >= REVOKED_KEPT_MS) this.revoked.delete(id);
    this.revoked.set(tokenId, now);
    for (const stop of this.sending.get(tokenId) ?? []) stop.abort();
    this.closeToken(tokenId, { force: true });
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
      if (this.revoked.has(tokenId)) throw revokedError(); // revoked while resolving: make no transport for it
      entry = this.entries.get(tokenId) ?? { transport: createTransport(nodemailer, account, target, this.idleMs), fingerprint, timer: setTimeout(() => {}, 0) };
      this.entries.set(tokenId, entry);
    }
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.closeToken(tokenId), this.idleMs);
    entry.timer.unref?.();
    return entry.transport;
  }

  /**
   * Closes the token's SMTP connections (idle, a broken connection; revoke() with `force`, which also
   * closes one in the middle of a delivery). Safe to call when there are none.
   */
  closeToken(tokenId: string, options: { force?: boolean } = {}): void {
    const entry = this.entries.get(tokenId);
    if (!entry) return;
    this.entries.delete(tokenId);
    clearTimeout(entry.timer);
    entry.transport.close(options);
  }

  /** Closes every pooled transport (server shutdown, end of a test run). */
  closeAll(): void {
    for (const id of [...this.entries.keys()]) this.closeToken(id);
  }
}
