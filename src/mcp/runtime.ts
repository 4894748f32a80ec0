// What the composition root (src/composition.ts) builds for /mcp: the token's mail connections and
// credentials, the 2025-era sessions, the per-token call and attachment caps, and the calls in
// flight, and find_contacts' books. revoke() ends everything a token holds; sweep() is the one timer
// that expires idle MCP sessions (30 min), idle mail connections and credentials (5 min) and unused
// contact books (30 min).
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import { MailConnections, type MailConnectionOptions } from "../mail/connections.ts";
import { ContactsCache } from "../mail/read/contacts/cache.ts";
import { decodeAccount } from "../mail/account.ts";
import type { Unseal } from "../mail/credentials.ts";
import type { GrantMailboxes } from "../store/grant-mailboxes.ts";
import type { SessionRows } from "../store/mcp-sessions.ts";
import { ToolCallLimiter, type CallLimits } from "./token-caps/call-limit.ts";
import { InFlight } from "./transport/inflight.ts";
import { AnswerRelay } from "./transport/answer-relay.ts";
import type { SessionAnswers } from "../store/session-answers.ts";
import type { LegacySession } from "./transport/legacy-session.ts";
import { SendBudget } from "./token-caps/send-budget.ts";
import { SessionStore, type SessionLimits } from "./transport/sessions.ts";

/** The per-account caps (docs/decisions.md "Per-account limits"); tests lower them. */
export interface McpLimits {
  sessions?: Partial<SessionLimits>;
  calls?: Partial<CallLimits>;
  /** Outgoing attachment bytes one token may have in flight; default the 20 MB of docs/design.md §7. */
  attachmentBytesInFlight?: number;
}

export interface McpRuntimeOptions {
  mail?: MailConnectionOptions;
  limits?: McpLimits;
  /**
   * Where answers to a session's server requests that reached another instance are filed
   * (./transport/answer-relay.ts); without it each instance keeps what reaches it.
   */
  answers?: SessionAnswers;
}

/** Unseals one mailbox's account behind a token from its grant (docs/oauth.md §3); null once the token or mailbox is gone. */
export const accountUnsealer = (mailboxes: GrantMailboxes): Unseal => async (token, position) => {
  const bytes = await mailboxes.open(token, position);
  return bytes ? decodeAccount(bytes) : null;
};

export class McpRuntime {
  readonly mail: MailConnections;
  readonly sessions: SessionStore<LegacySession>;
  readonly calls: ToolCallLimiter;
  readonly sendBudget: SendBudget;
  /** find_contacts' books, per token and mailbox (src/mail/read/contacts/cache.ts): memory only, never the store. */
  readonly contacts: ContactsCache;
  /** POSTs still being answered, so a revocation can answer them at once (./transport/inflight.ts). */
  readonly inflight = new InFlight();
  /** Clients' answers to a session's requests, between instances (./transport/answer-relay.ts). */
  readonly relay: AnswerRelay | null;

  constructor(sessionRows: SessionRows, unseal: Unseal, clock: Clock, private readonly log: Logger, options: McpRuntimeOptions = {}) {
    const limits = options.limits ?? {};
    this.mail = new MailConnections(unseal, clock, log, options.mail);
    this.sessions = new SessionStore(sessionRows, clock, log, limits.sessions);
    this.calls = new ToolCallLimiter(limits.calls);
    this.sendBudget = new SendBudget(limits.attachmentBytesInFlight);
    this.contacts = new ContactsCache(clock);
    this.relay = options.answers ? new AnswerRelay(options.answers, log) : null;
  }

  /**
   * A revoked token loses its sessions, credentials and mail connections at once (docs/design.md §3);
   * its calls in flight are answered with an error first, so no client waits on a session being
   * torn down. The composition root calls this for every revocation it hears of.
   */
  async revoke(tokenId: string): Promise<void> {
    // Mail first, in the same tick: by the time a client reads "revoked", its send is already stopped
    // before the message goes out (src/mail/smtp/pool.ts).
    this.mail.closeToken(tokenId);
    this.contacts.dropToken(tokenId);
    this.inflight.revoke(tokenId);
    await this.sessions.closeToken(tokenId);
  }

  /** One mailbox left the token's connection: its IMAP connection, SMTP transport and credentials go now. */
  removeMailbox(tokenId: string, position: number): void {
    this.mail.closeMailbox(tokenId, position);
  }

  sweep(): void {
    this.mail.sweep();
    this.contacts.sweep();
    this.sessions.sweep().catch((err) => this.log.error("session sweep failed", { error: (err as Error).message }));
  }

  /** Shutdown: every connection closes and every live session is let go; session rows stay, so clients carry on after a restart. */
  async close(): Promise<void> {
    this.mail.closeAll();
    this.relay?.close();
    await this.sessions.closeAll();
  }
}

/** Starts the sweeper; the returned stop() also closes the runtime (shutdown). */
export function startMcpSweeper(rt: McpRuntime, everyMs = 60_000): () => Promise<void> {
  const timer = setInterval(() => rt.sweep(), everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await rt.close();
  };
}
