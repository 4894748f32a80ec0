// Everything that holds a token's mailbox open: its credentials in memory, its IMAP connection and
// its SMTP transport; and the content helper processes (HTML and PDF to text) its calls share. One
// object per service, built by the composition root; revocation closes a token's three at once
// (closeToken), one timer sweeps what has been idle (sweep), and shutdown stops everything.
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import { closeContentHelpers, contentHelpers, type ContentHelpers } from "./content/readers.ts";
import { connectionKey, connectionKeys } from "./connection-key.ts";
import { Credentials, type CredentialOptions, type Unseal } from "./credentials.ts";
import { ImapPool, type PoolOptions } from "./imap/pool.ts";
import { SmtpPool } from "./smtp/pool.ts";

export interface MailConnectionOptions {
  imap?: Partial<PoolOptions>;
  credentials?: Partial<CredentialOptions>;
  smtpIdleMs?: number;
  /** Helpers of one's own (tests); by default this service starts its own when a call needs one. */
  content?: ContentHelpers;
}

export class MailConnections {
  readonly credentials: Credentials;
  readonly imap: ImapPool;
  readonly smtp: SmtpPool;
  readonly content: ContentHelpers;

  constructor(unseal: Unseal, clock: Clock, log: Logger, options: MailConnectionOptions = {}) {
    this.credentials = new Credentials(unseal, clock, options.credentials);
    this.imap = new ImapPool(clock, log, options.imap);
    this.smtp = new SmtpPool(options.smtpIdleMs, clock);
    this.content = options.content ?? contentHelpers();
  }

  /**
   * The token was revoked: its account leaves memory and its connections close, even mid-command;
   * a send in progress is stopped before its message goes out and a later one refused (smtp/pool.ts).
   */
  closeToken(tokenId: string): void {
    // Each mailbox of the connection has its own IMAP connection and SMTP transport (./connection-key.ts).
    for (const key of connectionKeys(tokenId)) this.closeKey(key);
  }

  /**
   * One mailbox left the token's connection: what holds it open goes now rather than at the idle
   * sweep. Its position is never given to another mailbox of the connection (positions are fixed
   * when the connection is made), so the key stays dead.
   */
  closeMailbox(tokenId: string, position: number): void {
    this.closeKey(connectionKey(tokenId, position));
  }

  private closeKey(key: string): void {
    this.credentials.forgetKey(key);
    this.smtp.revoke(key);
    this.imap.closeToken(key);
  }

  /** Idle IMAP connections and credentials (SMTP transports end on their own timers). */
  sweep(): void {
    this.imap.sweep();
    this.credentials.sweep();
  }

  /** Shutdown. */
  closeAll(): void {
    this.imap.closeAll();
    this.smtp.closeAll();
    this.credentials.forgetAll();
    closeContentHelpers(this.content);
  }
}
