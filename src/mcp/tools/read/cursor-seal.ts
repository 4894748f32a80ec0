// The seal of this call's cursors: the grant's key (derived from the service's cursor key, which the
// composition root hands to the two tools that page with cursors through ../index.ts mcpTools) and
// the mailbox the grant reads (src/mail/read/cursor-seal.ts). Opened in the handler, before any IMAP
// work: a cursor that is not the server's own is an argument error at once.
import { grantCursorKey, mailboxOf, type CursorSeal } from "../../../mail/read/cursor-seal.ts";
import type { ToolContext } from "../context.ts";

export async function cursorSealOf(serviceKey: Uint8Array, ctx: Pick<ToolContext, "grantId" | "account">): Promise<CursorSeal> {
  return { key: grantCursorKey(serviceKey, ctx.grantId), mailbox: mailboxOf(await ctx.account()) };
}
