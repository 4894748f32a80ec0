// What a tool's handler gets with each call: the ToolContext, built per call by src/mcp/server.ts
// from the request's Bearer token, and the view of it the mail layer's write functions take.
import type { ImapFlow } from "imapflow";
import type { Logger } from "../../log.ts";
import type { MailAccount } from "../../mail/account.ts";
import type { OAuthProviderInfo } from "../../mail/providers/oauth/provider.ts";
import type { ContentReaders } from "../../mail/content/readers.ts";
import type { OutgoingMessage, SendResult } from "../../mail/smtp/pool.ts";
import type { OutgoingDeps } from "../../mail/write/outgoing.ts";
import type { ActivityEntry } from "../../store/activity.ts";
import type { SendingApi } from "../send-gate/sending.ts";

export interface ToolContext {
  /** TokenRecord.id (SHA-256 of the token): safe to log and to key caches by. */
  tokenId: string;
  /** The grant behind the token: what the activity log files write calls under. */
  grantId: string;
  /** Granted scopes (src/scopes.ts), e.g. [READ_SCOPE, WRITE_SCOPE]. */
  scopes: string[];
  /**
   * Runs fn with the token's pooled IMAP connection (opened on demand). If a reused connection
   * turns out dropped, fn runs once more on a new one: pass { retryOnDrop: false } when running
   * fn twice could do a write twice (send, append, move).
   */
  withImap<T>(fn: (client: ImapFlow) => Promise<T>, options?: { retryOnDrop?: boolean }): Promise<T>;
  /** HTML→text and PDF→text helpers, on this token's share of them (src/mail/content/helper/pool.ts). */
  content: ContentReaders;
  /** The mailbox credentials behind the token, unsealed on first use and kept while it is active (src/mail/credentials.ts). */
  account(): Promise<MailAccount>;
  /** Submits a built message over the token's SMTP transport (src/mail/smtp/pool.ts), logged in as `sender`. */
  submit(sender: MailAccount, message: OutgoingMessage): Promise<SendResult>;
  /**
   * Reserves `bytes` of outgoing attachments against the token's budget for sends in flight
   * (src/mcp/limits/send-budget.ts); throws BusyError when over it. Call the returned release in a finally.
   */
  reserveAttachments(bytes: number): () => void;
  /**
   * Files a write call in the owner's activity log (docs/owner.md §4); never throws. The write
   * pipeline (./pipeline/write.ts) calls it: a tool never does.
   */
  recordActivity(entry: Omit<ActivityEntry, "grantId">): Promise<void>;
  /**
   * The send gate (src/mcp/send-gate/gate.ts): every tool that sends mail goes through
   * sending.send(request), which applies the grant's policy, asks the person, keeps delivery to at
   * most once and counts the caps. Never submit over SMTP around it.
   */
  sending: SendingApi;
  log: Logger;
  /** Aborted when the client cancels the request or the session closes. */
  signal: AbortSignal;
  /**
   * The grant's cursor key (src/mail/read/cursor-seal.ts): what seals search_emails' and
   * get_changes' cursors so that only this server's own, for this grant, are taken back.
   */
  cursorKey: Uint8Array;
  /** OAuth mail providers configured on this server (list_providers); none when absent. */
  signInProviders?: readonly OAuthProviderInfo[];
}

/** What src/mail/write/ needs to compose, save and send a message, from the call's context. */
export async function outgoingDeps(ctx: Pick<ToolContext, "account" | "withImap" | "submit" | "reserveAttachments" | "content">): Promise<OutgoingDeps> {
  const account = await ctx.account();
  return {
    account, withImap: ctx.withImap, submit: (message) => ctx.submit(account, message), reserveAttachments: ctx.reserveAttachments,
    content: ctx.content,
  };
}
