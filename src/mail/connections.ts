// Everything that holds a token's mailbox open: its credentials in memory, its IMAP connection and
// its SMTP transport. One object per service, built by the composition root; revocation closes all
// three at once (closeToken), and one timer sweeps what has been idle (sweep).
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import { Credentials, type CredentialOptions, type Unseal } from "./credentials.ts";
import { ImapPool, type PoolOptions } from "./imap/pool.ts";
import { SmtpPool } from "./smtp/pool.ts";

export interface MailConnectionOptions {
  imap?: Partial<PoolOptions>;
  credentials?: Partial<CredentialOptions>;
  smtpIdleMs?: number;
}

export class MailConnections {
  readonly credentials: Credentials;
  readonly imap: ImapPool;
  readonly smtp: SmtpPool;

  constructor(unseal: Unseal, clock: Clock, log: Logger, options: MailConnectionOptions = {}) {
    this.credentials = new Credentials(unseal, clock, options.credentials);
    this.imap = new ImapPool(clock, log, options.imap);
    this.smtp = new SmtpPool(options.smtpIdleMs, clock);
  }

  /**
   * The token was revoked: its account leaves memory and its connections close, even mid-command;
   * a send in progress is stopped before its message goes out and a later one refused (smtp/pool.ts).
   */
  closeToken(tokenId: string): void {
    this.credentials.forget(tokenId);
    this.smtp.revoke(tokenId);
    this.imap.closeToken(tokenId);
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
  }
}
