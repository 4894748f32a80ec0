// "A new recipient" (docs/design.md §3 "Send policy"): an address this mailbox has never written to,
// neither in its \Sent folder nor through this grant's delivered sends; the mailbox's own address
// is never new. IMAP SEARCH matches substrings of the header ("bob@x.org" is found in
// "ebob@x.org.evil"), which would let a look-alike address pass for a known one: every hit is
// confirmed by comparing the addresses of the messages found, exactly, before it counts.
import type { ImapFlow } from "imapflow";
import { MailError } from "../mail/errors.ts";
import { fetchOwn, withMailbox } from "../mail/imap/mailbox.ts";
import { requireSpecialUse } from "../mail/imap/folders.ts";
import type { OutgoingDeps } from "../mail/write/outgoing.ts";
import type { SendRecipients } from "../store/send-recipients.ts";

/** Matches confirmed per address: the newest few are enough to find one exact match. */
const CHECK_NEWEST = 20;

export interface RecipientDeps {
  grantId: string;
  recipients: SendRecipients;
  mail: OutgoingDeps;
}

/** The gate's view for this lookup. */
export const knownRecipientsDeps = (d: { grantId: string; store: { sendRecipients: SendRecipients }; mail: OutgoingDeps }): RecipientDeps =>
  ({ grantId: d.grantId, recipients: d.store.sendRecipients, mail: d.mail });

/** The addresses among `addresses` this mailbox has never written to, in the order given. */
export async function newRecipients(deps: RecipientDeps, addresses: readonly string[]): Promise<string[]> {
  const own = new Set([deps.mail.account.email, deps.mail.account.username].map((a) => a.toLowerCase()));
  let open = unique(addresses).filter((a) => !own.has(a.toLowerCase()));
  if (!open.length) return [];
  const delivered = await deps.recipients.known(deps.grantId, open);
  open = open.filter((a) => !delivered.has(a));
  if (!open.length) return [];
  const inSent = await deps.mail.withImap((client) => knownInSent(client, open));
  return open.filter((a) => !inSent.has(a.toLowerCase()));
}

function unique(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((a) => (seen.has(a.toLowerCase()) ? false : (seen.add(a.toLowerCase()), true)));
}

/** Lower-cased addresses among `open` that a message in \Sent was addressed to (To, Cc or Bcc). */
async function knownInSent(client: ImapFlow, open: string[]): Promise<Set<string>> {
  let sent: string;
  try {
    sent = await requireSpecialUse(client, "\\Sent");
  } catch (err) {
    if (err instanceof MailError) return new Set(); // no Sent folder: nobody is known from it
    throw err;
  }
  return withMailbox(client, sent, async () => {
    const known = new Set<string>();
    for (const address of open) {
      const hits = (await client.search({ or: [{ to: address }, { cc: address }, { bcc: address }] }, { uid: true })) || [];
      if (hits.length && (await addressedTo(client, hits, address))) known.add(address.toLowerCase());
    }
    return known;
  }, { readOnly: true, freshness: "sync" });
}

async function addressedTo(client: ImapFlow, uids: number[], address: string): Promise<boolean> {
  const newest = [...uids].sort((a, b) => b - a).slice(0, CHECK_NEWEST);
  const wanted = address.toLowerCase();
  for (const msg of await fetchOwn(client, newest.join(","), { envelope: true }, true, new Set(newest))) {
    const env = msg.envelope;
    const all = [...(env?.to ?? []), ...(env?.cc ?? []), ...(env?.bcc ?? [])];
    if (all.some((m) => m.address?.toLowerCase() === wanted)) return true;
  }
  return false;
}
