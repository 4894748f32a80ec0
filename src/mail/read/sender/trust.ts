// Which authserv-id this mailbox's own provider writes, per connection (a WeakMap on the client, so
// it ends with the connection and nothing is global). Known for the big providers by the IMAP host
// (../../providers/authserv-ids.ts); otherwise learned from the INBOX pages this connection lists:
// the authserv-id of each message's topmost Authentication-Results is counted, and the most common
// one is trusted once it is most of at least LEARN_MIN messages. Bounded: at most LEARN_MAX
// observations, then the answer is fixed for the connection. A sender can write a header of their
// own only below the receiving server's (RFC 8601 §5 / §7.2), so the topmost is the provider's
// whenever the provider adds one at all.
import type { ImapFlow } from "imapflow";
import { providerAuthservIds } from "../../providers/authserv-ids.ts";
import { parseAuthResults } from "./auth-results.ts";
import { headerFields } from "./header-fields.ts";

const LEARN_MIN = 5;
const LEARN_MAX = 200;
/** The share of observations the most common id needs to be trusted. */
const LEARN_SHARE = 0.8;

interface Learning {
  counts: Map<string, number>;
  seen: number;
}

const learning = new WeakMap<ImapFlow, Learning>();

/** The IMAP host the client connected to (imapflow keeps it as `options.host`). */
const hostOf = (client: ImapFlow) => (client as unknown as { options?: { host?: string } }).options?.host ?? null;

/** The authserv-ids to trust for mail read over `client`: the provider's, else the learned one, else none. */
export function trustedAuthservIds(client: ImapFlow): readonly string[] {
  const known = providerAuthservIds(hostOf(client));
  if (known.length) return known;
  const l = learning.get(client);
  if (!l || l.seen < LEARN_MIN) return [];
  const [id, n] = [...l.counts].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
  return n >= l.seen * LEARN_SHARE && id ? [id] : [];
}

/** Counts the topmost Authentication-Results' authserv-id of INBOX messages (header blocks as fetched). */
export function observeInbox(client: ImapFlow, folder: string, headerBlocks: Array<Buffer | undefined>): void {
  if (folder.toUpperCase() !== "INBOX" || providerAuthservIds(hostOf(client)).length) return;
  let l = learning.get(client);
  if (!l) learning.set(client, (l = { counts: new Map(), seen: 0 }));
  for (const block of headerBlocks) {
    if (l.seen >= LEARN_MAX) return;
    const top = headerFields(block, "authentication-results")[0];
    const id = top === undefined ? "" : parseAuthResults(top)?.authservId ?? "";
    l.seen++;
    if (id) l.counts.set(id, (l.counts.get(id) ?? 0) + 1);
  }
}
