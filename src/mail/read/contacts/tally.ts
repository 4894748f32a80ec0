// The people of a mailbox's own history, counted (find_contacts): how often the person wrote to an
// address (\Sent) or answered mail from it (INBOX, \Answered), and when last. Pure: the IMAP side
// (./harvest.ts) feeds it the addresses of header fields; ranking and matching are here.
import type { Address } from "../display-addresses.ts";

export interface Tallied {
  /** The display name of the most recent message that gave one, or null. */
  name: string | null;
  address: string;
  count: number;
  /** Epoch ms of the most recent message, 0 when none had a date. */
  last: number;
  /** Epoch ms of the message the name came from. */
  namedAt: number;
}

/** Addresses (lower case) to what was counted for them. */
export type Tally = Map<string, Tallied>;

/** An address as counted: with its tally key (the address in lower case), made once per distinct header value. */
export interface Keyed {
  name: string | null;
  address: string;
  key: string;
}

/** The addresses of a parsed field that have one, keyed. */
export const keyed = (addresses: readonly Address[]): Keyed[] =>
  addresses.flatMap((a) => (a.address ? [{ name: a.name, address: a.address, key: a.address.toLowerCase() }] : []));

/** Past this many addresses in one message, repeats are found with a Set rather than by looking back. */
const LOOK_BACK = 8;

/** Counts one message for each address of `groups` (its fields' addresses), each address once per message. */
export function countMessage(tally: Tally, groups: ReadonlyArray<readonly Keyed[]>, date: number): void {
  let total = 0;
  for (const g of groups) total += g.length;
  const seen = total > LOOK_BACK ? new Set<string>() : null;
  for (let gi = 0; gi < groups.length; gi++) {
    const group = groups[gi]!;
    for (let ai = 0; ai < group.length; ai++) {
      const a = group[ai]!;
      if (seen ? seen.has(a.key) : countedBefore(groups, gi, ai, a.key)) continue;
      seen?.add(a.key);
      bump(tally, a, date);
    }
  }
}

/** `key` is among the addresses before groups[gi][ai]. */
function countedBefore(groups: ReadonlyArray<readonly Keyed[]>, gi: number, ai: number, key: string): boolean {
  for (let g = 0; g <= gi; g++) {
    const group = groups[g]!;
    for (let a = 0; a < (g === gi ? ai : group.length); a++) if (group[a]!.key === key) return true;
  }
  return false;
}

function bump(tally: Tally, a: Keyed, date: number): void {
  let t = tally.get(a.key);
  if (!t) {
    t = { name: null, address: a.address, count: 0, last: 0, namedAt: -1 };
    tally.set(a.key, t);
  }
  t.count++;
  t.last = Math.max(t.last, date);
  if (a.name && date >= t.namedAt) {
    t.name = a.name;
    t.namedAt = date;
  }
}

export interface Contact {
  name: string | null;
  address: string;
  sent: number;
  received: number;
  /** Epoch ms of the newest message either way (0: none had a date). */
  last: number;
}

/** Case and accents folded away (NFD, combining marks stripped, lower case): "Zoë" matches "zoe". */
export const fold = (s: string): string => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

const DAY_MS = 86_400_000;

/** How often and how recently: the count, halved for every 30 days since the last message. */
export const score = (c: Contact, now: number): number =>
  (c.sent + c.received) / (1 + Math.max(0, now - c.last) / DAY_MS / 30);

export interface RankOptions {
  query: string | null;
  limit: number;
  /** Addresses (any case) never listed: the mailbox's own identities. */
  exclude: readonly string[];
  now: number;
}

/** The two tallies as contacts, own addresses left out, matched on name or address, best first. */
export function rankContacts(sent: Tally, received: Tally, o: RankOptions): Contact[] {
  const own = new Set(o.exclude.map((a) => a.toLowerCase()));
  const needle = o.query ? fold(o.query.trim()) : "";
  const out: Array<Contact & { score: number }> = [];
  for (const key of new Set([...sent.keys(), ...received.keys()])) {
    if (own.has(key)) continue;
    const c = merged(sent.get(key), received.get(key));
    if (needle && !fold(c.address).includes(needle) && !fold(c.name ?? "").includes(needle)) continue;
    out.push({ ...c, score: score(c, o.now) });
  }
  out.sort((a, b) => b.score - a.score || b.last - a.last || a.address.localeCompare(b.address));
  return out.slice(0, o.limit).map(({ score: _, ...c }) => c);
}

function merged(s: Tallied | undefined, r: Tallied | undefined): Contact {
  const newer = !s ? r! : !r ? s : r.namedAt > s.namedAt ? r : s;
  const name = newer.name ?? s?.name ?? r?.name ?? null;
  return { name, address: (s ?? r)!.address, sent: s?.count ?? 0, received: r?.count ?? 0, last: Math.max(s?.last ?? 0, r?.last ?? 0) };
}
