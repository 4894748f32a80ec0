// The mailbox's own addresses: the one it signed in as, the login name when that is an address, and
// the send-as identities the person listed (./identities/identity.ts). The one place that says so
// (reply-all leaves them out, an invitation's attendee is found among them).
import type { MailAccount } from "./account.ts";

export function ownAddresses(account: Pick<MailAccount, "email" | "username">, identities: ReadonlyArray<{ address: string }> = []): string[] {
  const all = [account.email, ...(account.username.includes("@") ? [account.username] : []), ...identities.map((i) => i.address)];
  return [...new Set(all.map((a) => a.toLowerCase()))];
}
