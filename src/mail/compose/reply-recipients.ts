// Who a reply goes to, as mail clients address it (RFC 5322 §3.6.3): Reply-To when the original has
// one, else its From; reply-all adds the original's To and Cc. The mailbox's own addresses never
// get a copy, and nobody is listed twice (To beats Cc; an address the caller put in Bcc stays hidden).
import type { Address } from "../read/display-addresses.ts";
import { isValidAddress, type Mailbox, type Recipients } from "./recipients.ts";

export interface ReplyOriginal {
  from: Address | null;
  replyTo: Address[];
  to: Address[];
  cc: Address[];
}

export interface ReplyAddressing {
  recipients: Recipients;
  /** Addresses of the original that were left out because no mail server would take them. */
  skipped: string[];
}

const key = (a: string) => a.toLowerCase();

/**
 * `given` are the caller's own to/cc/bcc. A plain reply fills `to` only when the caller gave none;
 * reply-all always adds the original's people. Replying to one's own message (in Sent) goes to
 * whom it was sent to, as mail clients do.
 */
export function replyRecipients(given: Recipients, original: ReplyOriginal, own: readonly string[], all: boolean): ReplyAddressing {
  const mine = new Set(own.map(key));
  const skipped: string[] = [];
  const usable = (list: Address[]): Mailbox[] =>
    list.flatMap((a) => {
      if (!a.address) return [];
      if (!isValidAddress(a.address)) return (skipped.push(a.address), []);
      return mine.has(key(a.address)) ? [] : [{ name: a.name, address: a.address }];
    });
  const author = original.replyTo.length ? original.replyTo : original.from ? [original.from] : [];
  let to = usable(author);
  if (!to.length) to = usable(original.to); // the original was our own: answer its recipients
  const derived = all ? { to: [...to, ...usable(original.to)], cc: usable(original.cc) } : { to: given.to.length ? [] : to, cc: [] };
  return { recipients: dedupe({ to: [...given.to, ...derived.to], cc: [...given.cc, ...derived.cc], bcc: given.bcc }), skipped: [...new Set(skipped)] };
}

/** Each address once: the first mention wins, To before Cc; Bcc addresses are taken out of To and Cc. */
export function dedupe(r: Recipients): Recipients {
  const seen = new Set(r.bcc.map((m) => key(m.address)));
  const once = (list: Mailbox[]) => list.filter((m) => (seen.has(key(m.address)) ? false : (seen.add(key(m.address)), true)));
  const to = once(r.to);
  const cc = once(r.cc);
  const bccSeen = new Set<string>();
  return { to, cc, bcc: r.bcc.filter((m) => (bccSeen.has(key(m.address)) ? false : (bccSeen.add(key(m.address)), true))) };
}
