// The per-request view of whose mailbox is served: the ToolContext a tool's handler gets, built from the
// Bearer token the /mcp route checked (authInfo, which the SDK hands every request handler as
// ctx.http.authInfo). Tools, the message resource and completions all start here.
import type { AuthInfo, McpServer, ServerContext } from "@modelcontextprotocol/server";
import { contentReaders } from "../mail/content/readers.ts";
import { plainImapError } from "./plain-errors.ts";
import type { McpServerDeps, TokenExtra } from "./server-deps.ts";
import type { ToolContext } from "./tools/index.ts";
import { FIRST_MAILBOX, outgoingDeps, type MailboxRef } from "./tools/context.ts";
import { connectionKey } from "../mail/connection-key.ts";
import type { ActivityDetails } from "../store/activity.ts";
import { sendingApi, type SendingApi } from "./confirm/tool-sending.ts";
import { mailboxRefAt } from "./accounts/mailbox-ref.ts";

export type { TokenExtra };

/** The token's ids from a request's authInfo, or null when it carries none (never on an authenticated /mcp). */
export function tokenOf(auth: AuthInfo | undefined): (TokenExtra & { auth: AuthInfo }) | null {
  const { tokenId, grantId } = (auth?.extra ?? {}) as Partial<TokenExtra>;
  return auth && tokenId && grantId ? { tokenId, grantId, auth } : null;
}

/**
 * `call`: the tool call being answered (its server and SDK context), which the send gate needs for
 * what the client declared and for the round's requestState. Without one (the message resource,
 * completions) nothing can be sent.
 */
export function toolContext(deps: McpServerDeps, auth: AuthInfo, { tokenId, grantId }: TokenExtra, signal: AbortSignal,
  call?: { server: McpServer; call: ServerContext }, mailbox: MailboxRef = FIRST_MAILBOX): ToolContext {
  const { account } = deps.mail.credentials.for(tokenId, auth.token, mailbox.position);
  const key = connectionKey(tokenId, mailbox.position);
  // confirm_send answers in the mailbox its review card's message is held in, known only once the
  // card's token is checked: its activity row is filed there (fileUnder), not under the first.
  const refAt = async (position: number): Promise<MailboxRef> => (position === mailbox.position ? mailbox
    : (await mailboxRefAt(deps.mailboxes, grantId, position)) ?? { position, account: null, several: true });
  let filed: Promise<MailboxRef> = Promise.resolve(mailbox);
  const ctx: Omit<ToolContext, "sending"> = {
    tokenId,
    grantId,
    mailbox,
    accounts: () => deps.mailboxes.list(grantId),
    scopes: auth.scopes,
    // imapflow refuses some argument values itself (a line break in a folder name): say so in words.
    withImap: (fn, options) => deps.mail.imap.withClient(key, account, (client) => fn(client).catch((err) => { throw plainImapError(err); }), options),
    peekImap: (fn) => deps.mail.imap.ifOpen(key, fn),
    account,
    content: contentReaders(tokenId, deps.mail.content),
    reserveAttachments: (bytes) => deps.sendBudget.reserve(tokenId, bytes),
    // The call has happened by now: a log that cannot be written is reported, not turned into a failure.
    recordActivity: (entry) => filed.then((at) => deps.activity.record({
      ...entry, details: withAccount(entry.details, at), grantId, ...(at.mailboxKey ? { mailboxKey: at.mailboxKey } : {}),
    })).catch((err: Error) =>
      deps.log.error("activity log write failed", { tool: entry.tool, error: err.message })),
    log: deps.log,
    signal,
  };
  const sending: SendingApi = call
    ? sendingApi(deps.sending, {
      tokenId, grantId, mailbox: mailbox.position, server: call.call, log: deps.log, signal,
      // Era-neutral: a 2025-era session's initialize, or (backfilled by the SDK) this 2026-07-28 request's envelope.
      capabilities: call.server.server.getClientCapabilities(),
      outgoing: () => outgoingDeps(ctx),
      outgoingAt: async (position) => outgoingDeps(toolContext(deps, auth, { tokenId, grantId }, signal, undefined, await refAt(position))),
      fileUnder: (position) => { filed = refAt(position); },
    })
    : NO_SENDING;
  return { ...ctx, sending };
}

/** The row names the mailbox on a connection that has several (a one-mailbox row stays as it was). */
const withAccount = (details: ActivityDetails, mailbox: MailboxRef): ActivityDetails =>
  (mailbox.several && mailbox.account ? { account: mailbox.account, ...details } : details);

const refuse = async (): Promise<never> => {
  throw new Error("sending is only possible inside a tool call");
};
const NO_SENDING: SendingApi = { send: refuse, confirmReview: refuse };
