// Whom a composing tool (draft_email, send_email, update_draft) may write as: the mailbox's
// identities and signature, which only the person sets (setup form, owner's page) and no tool can
// change. Handed to those tools' factories by mcpTools (../index.ts); resolved per call from the
// grant behind the token (the mailbox it is for).
import type { MailAccount } from "../../../mail/account.ts";
import { senderOf, type IdentitySettings, type Sender } from "../../../mail/identities/identity.ts";
import type { ToolContext } from "../context.ts";
import { mailboxScope } from "../../../store/mailbox-scope.ts";

/** The identity settings of one mailbox, named by its scope (src/store/mailbox-identities.ts forGrant), or null. */
export type IdentityLookup = (mailboxScope: string) => Promise<IdentitySettings | null>;

export const NO_IDENTITIES: IdentityLookup = async () => null;

/** The call's sender: the login address first, then the identities the person listed. */
export async function senderFor(lookup: IdentityLookup, ctx: Pick<ToolContext, "grantId" | "mailbox">, account: MailAccount): Promise<Sender> {
  return senderOf(account.email, await lookup(mailboxScope(ctx.grantId, ctx.mailbox.position)));
}
