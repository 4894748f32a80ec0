// "A new recipient" (docs/design.md §3 "Send policy"): an address this mailbox has never written to,
// neither through this grant's delivered sends nor in a message that was in its \Sent folder before
// the grant was made; the mailbox's own address is never new. Only \Sent below the grant's mark
// counts (src/sent-mark.ts): a tool of this server can move, copy, label or save any message into
// \Sent, but every message it places there gets a UID at or above the mark (RFC 9051 §2.3.1.1), so
// no sequence of tool calls makes a stranger known. A grant without a mark (made before marks were
// kept) gets one at its first check here. IMAP SEARCH matches substrings of the header ("bob@x.org" is found in
// "ebob@x.org.evil"), which would let a look-alike address pass for a known one: every hit is
// confirmed by comparing the addresses of the messages found, exactly, before it counts.
import type { ImapFlow } from "imapflow";
import { MailError } from "../mail/errors.ts";
import { fetchOwn, withMailbox } from "../mail/imap/mailbox.ts";
import { takeSentMark } from "../mail/imap/sent-mark.ts";
import type { OutgoingDeps } from "../mail/write/outgoing.ts";
import type { SentMark } from "../sent-mark.ts";
import type { SendRecipients } from "../store/send-recipients.ts";
import type { SentMarks } from "../store/sent-marks.ts";

/** Matches confirmed per address: the newest few are enough to find one exact match. */
const CHECK_NEWEST = 20;

export interface RecipientDeps {
  grantId: string;
  recipients: SendRecipients;
  marks: SentMarks;
  mail: OutgoingDeps;
}

/** The gate's view for this lookup. */
export const knownRecipientsDeps = (d: { grantId: string; store: { sendRecipients: SendRecipients; sentMarks: SentMarks }; mail: OutgoingDeps }): RecipientDeps =>
  ({ grantId: d.grantId, recipients: d.store.sendRecipients, marks: d.store.sentMarks, mail: d.mail });

/** The addresses among `addresses` this mailbox has never written to, in the order given. */
export async function newRecipients(deps: RecipientDeps, addresses: readonly string[]): Promise<string[]> {
  const own = new Set([deps.mail.account.email, deps.mail.account.username].map((a) => a.toLowerCase()));
  let open = unique(addresses).filter((a) => !own.has(a.toLowerCase()));
  if (!open.length) return [];
  const delivered = await deps.recipients.known(deps.grantId, open);
  open = open.filter((a) => !delivered.has(a));
  if (!open.length) return [];
  const inSent = await deps.mail.withImap(async (client) => knownInSent(client, open, await markOf(deps, client)));
  return open.filter((a) => !inSent.has(a.toLowerCase()));
}

function unique(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((a) => (seen.has(a.toLowerCase()) ? false : (seen.add(a.toLowerCase()), true)));
}

/** The grant's mark; taken now, once, for a grant made before marks were kept. */
async function markOf(deps: RecipientDeps, client: ImapFlow): Promise<SentMark> {
  return (await deps.marks.get(deps.grantId)) ?? deps.marks.keepFirst(deps.grantId, await takeSentMark(client));
}

/**
 * Lower-cased addresses among `open` that a message in \Sent from before the mark was addressed to
 * (To, Cc or Bcc). The folder is the one marked, whatever is called or marked \Sent now; replaced
 * (another UIDVALIDITY) or gone, nothing in it counts.
 */
async function knownInSent(client: ImapFlow, open: string[], mark: SentMark): Promise<Set<string>> {
  if (mark.path === null || mark.uidNext <= 1) return new Set();
  const before = `1:${mark.uidNext - 1}`;
  try {
    return await withMailbox(client, mark.path, async () => {
      const known = new Set<string>();
      if (Number(client.mailbox && client.mailbox.uidValidity) !== mark.uidValidity) return known;
      for (const address of open) {
        const hits = (await client.search({ uid: before, or: [{ to: address }, { cc: address }, { bcc: address }] }, { uid: true })) || [];
        const old = hits.filter((uid) => uid < mark.uidNext); // the server's word, checked
        if (old.length && (await addressedTo(client, old, address))) known.add(address.toLowerCase());
      }
      return known;
    }, { readOnly: true, freshness: "sync" });
  } catch (err) {
    if (err instanceof MailError && err.kind === "not_found") return new Set(); // the marked folder is gone
    throw err;
  }
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
