// Types and helpers of the tool contract; documented at the top of ./index.ts.
import type { ToolAnnotations, CallToolResult } from "@modelcontextprotocol/server";
import type { ImapFlow } from "imapflow";
import type { z } from "zod";
import type { Logger } from "../../log.ts";
import type { MailAccount } from "../../mail/account.ts";
import type { OutgoingMessage, SendResult } from "../../mail/smtp/pool.ts";
import type { ActivityEntry } from "../../store/activity.ts";

export interface ToolContext {
  /** TokenRecord.id (SHA-256 of the token): safe to log and to key caches by. */
  tokenId: string;
  /** The grant behind the token: what the activity log files write calls under. */
  grantId: string;
  /** Granted scopes, e.g. ["email:read", "email:write"]. */
  scopes: string[];
  /**
   * Runs fn with the token's pooled IMAP connection (opened on demand). If a reused connection
   * turns out dropped, fn runs once more on a new one: pass { retryOnDrop: false } when running
   * fn twice could do a write twice (send, append, move).
   */
  withImap<T>(fn: (client: ImapFlow) => Promise<T>, options?: { retryOnDrop?: boolean }): Promise<T>;
  /** The mailbox credentials behind the token, unsealed on first use and kept while it is active (src/mail/credentials.ts). */
  account(): Promise<MailAccount>;
  /** Submits a built message over the token's SMTP transport (src/mail/smtp/pool.ts), logged in as `sender`. */
  submit(sender: MailAccount, message: OutgoingMessage): Promise<SendResult>;
  /**
   * Reserves `bytes` of outgoing attachments against the token's budget for sends in flight
   * (src/mcp/send-budget.ts); throws BusyError when over it. Call the returned release in a finally.
   */
  reserveAttachments(bytes: number): () => void;
  /** Files a write call in the owner's activity log (docs/owner.md §4); never throws. asWriter calls it. */
  recordActivity(entry: Omit<ActivityEntry, "grantId">): Promise<void>;
  log: Logger;
  /** Aborted when the client cancels the request or the session closes. */
  signal: AbortSignal;
}

type Shape = z.ZodRawShape;

export interface ToolConfig<In extends Shape, Out extends Shape> {
  title: string;
  /** Written for a model: what the tool does, when to use it, what comes back. */
  description: string;
  inputSchema: In;
  outputSchema: Out;
  annotations: ToolAnnotations;
}

export interface ToolDef<In extends Shape = Shape, Out extends Shape = Shape> {
  name: string;
  config: ToolConfig<In, Out>;
  handler: (args: z.output<z.ZodObject<In>>, ctx: ToolContext) => Promise<CallToolResult>;
}

/** Identity function that lets TypeScript infer `args` from inputSchema. */
export function defineTool<In extends Shape, Out extends Shape>(def: ToolDef<In, Out>): ToolDef<In, Out> {
  return def;
}

/** Annotations for the five read tools (docs/design.md §6). */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true,
};

/** Annotations for the write tools; a tool that destroys or cannot be repeated safely overrides them. */
export const WRITE: ToolAnnotations = {
  readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true,
};
