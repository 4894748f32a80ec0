// The mailbox's own addresses: the one it signed in as, and the login name when that is an address.
// The one place that says so (reply-all leaves them out, an invitation's attendee is found among
// them); send-as identities join here.
import type { MailAccount } from "./account.ts";

export function ownAddresses(account: Pick<MailAccount, "email" | "username">): string[] {
  const all = [account.email, ...(account.username.includes("@") ? [account.username] : [])];
  return [...new Set(all.map((a) => a.toLowerCase()))];
}
