// The seal of this call's cursors: the grant's key and the mailbox the grant reads
// (src/mail/read/cursor-seal.ts). Opened in the handler, before any IMAP work: a cursor that is not
// the server's own is an argument error at once.
import { mailboxOf, type CursorSeal } from "../../../mail/read/cursor-seal.ts";
import type { ToolContext } from "../context.ts";

export async function cursorSealOf(ctx: Pick<ToolContext, "cursorKey" | "account">): Promise<CursorSeal> {
  return { key: ctx.cursorKey, mailbox: mailboxOf(await ctx.account()) };
}
