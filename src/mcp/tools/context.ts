// What a tool's handler gets with each call: the ToolContext, built per call by src/mcp/server.ts
// from the request's Bearer token, and the view of it the mail layer's write functions take.
import type { ImapFlow } from "imapflow";
import type { WithClientOptions } from "../../mail/imap/pool.ts";
import type { Logger } from "../../log.ts";
import type { MailAccount } from "../../mail/account.ts";
import type { ContentReaders } from "../../mail/content/readers.ts";
import type { OutgoingDeps } from "../../mail/write/outgoing.ts";
import type { ActivityEntry } from "../../store/activity.ts";
import type { MailboxRow } from "../../store/grant-mailboxes.ts";
import type { SendingApi } from "../confirm/tool-sending.ts";

export interface ToolContext {
  /** TokenRecord.id (SHA-256 of the token): safe to log and to key caches by. */
  tokenId: string;
  /** The grant behind the token: what the activity log files write calls under. */
  grantId: string;
  /** Which mailbox of the connection this context works in (docs/design.md §3 "Several mailboxes"). */
  mailbox: MailboxRef;
  /** Every mailbox of the connection (list_accounts shows them). */
  accounts(): Promise<readonly MailboxRow[]>;
  /** Granted scopes (src/scopes.ts), e.g. [READ_SCOPE, WRITE_SCOPE]. */
  scopes: string[];
  /**
   * Runs fn with the token's pooled IMAP connection (opened on demand). If a reused connection
   * turns out dropped, fn runs once more on a new one: pass { retryOnDrop: false } when running
   * fn twice could do a write twice (send, append, move). `examine`: the folder fn reads first, read
   * only; a connection opened for this call EXAMINEs it in its first turn (src/mail/imap/early-session.ts),
   * and with `prefetch` fetches its newest page there too when the pool knows where it began.
   */
  withImap<T>(fn: (client: ImapFlow) => Promise<T>, options?: WithClientOptions): Promise<T>;
  /**
   * fn on the pooled connection if it is open now, else null; it opens, sends and waits for nothing,
   * so fn may only read what the connection already knows (a spanning read's plan). Optional: a
   * context without it knows nothing.
   */
  peekImap?<T>(fn: (client: ImapFlow) => T): T | null;
  /** HTML→text and PDF→text helpers, on this token's share of them (src/mail/content/helper/pool.ts). */
  content: ContentReaders;
  /** The mailbox credentials behind the token, unsealed on first use and kept while it is active (src/mail/credentials.ts). */
  account(): Promise<MailAccount>;
  /**
   * Reserves `bytes` of outgoing attachments against the token's budget for sends in flight
   * (src/mcp/token-caps/send-budget.ts); throws BusyError when over it. Call the returned release in a finally.
   */
  reserveAttachments(bytes: number): () => void;
  /**
   * Files a write call in the owner's activity log (docs/owner.md §4); never throws. The write
   * pipeline (./pipeline/write.ts) calls it: a tool never does.
   */
  recordActivity(entry: Omit<ActivityEntry, "grantId">): Promise<void>;
  /**
   * The send gate (src/sending/gate.ts): every tool that sends mail goes through
   * sending.send(request), which applies the grant's policy, asks the person, keeps delivery to at
   * most once, counts the caps and alone hands the message to SMTP. No context carries the SMTP
   * hand-off: the gate gets it from the composition root (src/sending/sending.ts).
   */
  sending: SendingApi;
  log: Logger;
  /** Aborted when the client cancels the request or the session closes. */
  signal: AbortSignal;
}

/** One mailbox of a connection, as a call's context names it. */
export interface MailboxRef {
  /** Its position in the connection (store/grant-mailboxes.ts): keys its connections and sending tables. */
  position: number;
  /** Its address in lower case, the `account` tools take; null when unknown (a grant older than labels). */
  account: string | null;
  /** Whether the connection has several mailboxes: results then name the account. */
  several: boolean;
  /** Its keyed hash, what the activity row is filed under (the owner's page); absent: the grant's. */
  mailboxKey?: string | null;
}

/** A one-mailbox connection's mailbox, or the context of what names none (the message resource's old form). */
export const FIRST_MAILBOX: MailboxRef = { position: 0, account: null, several: false };

/** What src/mail/write/ needs to compose and save a message (and the gate to send it), from the call's context. */
export async function outgoingDeps(ctx: Pick<ToolContext, "account" | "withImap" | "reserveAttachments" | "content">): Promise<OutgoingDeps> {
  const account = await ctx.account();
  return { account, withImap: ctx.withImap, reserveAttachments: ctx.reserveAttachments, content: ctx.content };
}
