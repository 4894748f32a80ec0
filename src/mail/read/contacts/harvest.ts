// The IMAP side of find_contacts: what changed in \Sent and INBOX since the last call, read with
// bounded work (docs/tools.md find_contacts). \Sent: STATUS (RFC 3501 §6.3.10 UIDNEXT, UIDVALIDITY),
// then the To/Cc/Bcc/Date fields of the new messages only, at most the newest SENT_WINDOW of them,
// CHUNK per FETCH. INBOX: STATUS (UIDNEXT, UIDVALIDITY, RFC 7162 §3.1.2.1 HIGHESTMODSEQ); on a
// change, UID SEARCH ANSWERED (RFC 3501 §6.4.4) and the From/Date fields of the answered UIDs not
// counted yet, the newest ANSWERED_WINDOW. Fields, not ENVELOPE: BODY.PEEK[HEADER.FIELDS (…)]
// (RFC 3501 §6.4.5) is one literal per message, where ENVELOPE is nested lists the server builds
// and imapflow's parser walks; each answer is counted as it arrives (./field-fetch.ts), its
// addresses parsed here (./block-fields.ts, ../../mime/headers.ts).
import type { ImapFlow } from "imapflow";
import { withMailbox } from "../../imap/mailbox.ts";
import { toSet } from "../../imap/uid-set.ts";
import { MailError } from "../../errors.ts";
import { addressField } from "../../mime/headers.ts";
import { BlockFields } from "./block-fields.ts";
import { fetchFieldBlocks } from "./field-fetch.ts";
import { countMessage, keyed, type Keyed, type Tally } from "./tally.ts";

/** The newest \Sent messages a first call reads. */
export const SENT_WINDOW = 20_000;
/** The newest answered INBOX messages counted. */
export const ANSWERED_WINDOW = 5_000;

/** Where a folder's count stands: what a later call compares STATUS with. */
export interface FolderMark {
  uidValidity: number;
  /** Every UID below this was looked at. */
  uidNext: number;
  /** HIGHESTMODSEQ when the server tells it (CONDSTORE), else null: then INBOX is searched every call. */
  modseq: bigint | null;
}

interface Status { uidValidity: number; uidNext: number; messages: number; modseq: bigint | null }

/** STATUS of `path`; a folder the connection has selected is brought up to date first (Dovecot answers it from the view). */
async function statusOf(client: ImapFlow, path: string): Promise<Status> {
  if (client.mailbox && client.mailbox.path === path) await client.noop();
  const s = await client.status(path, { uidNext: true, uidValidity: true, messages: true, highestModseq: true });
  if (!s) throw new MailError("protocol", `The mail server did not answer STATUS for "${path}"; try again.`);
  return {
    uidValidity: Number(s.uidValidity ?? 0), uidNext: Number(s.uidNext ?? 0), messages: Number(s.messages ?? 0),
    modseq: typeof s.highestModseq === "bigint" ? s.highestModseq : null,
  };
}

/**
 * Counts header blocks into `tally`: the addresses of `fields` and the Date. The same To or From
 * value comes back many times (the people written to most), so each distinct value is parsed once,
 * up to MEMO values.
 */
function blockCounter(tally: Tally, fields: readonly string[]): (block: Buffer) => void {
  const reader = new BlockFields([...fields, "date"]);
  const memo = new Map<string, Keyed[]>();
  const groups: Keyed[][] = fields.map(() => []);
  const parse = (value: string) => {
    let parsed = memo.get(value);
    if (!parsed) {
      parsed = keyed(addressField(value));
      if (memo.size >= MEMO) memo.clear();
      memo.set(value, parsed);
    }
    return parsed;
  };
  return (block) => {
    reader.read(block);
    for (let i = 0; i < fields.length; i++) groups[i] = parse(reader.values[i]!);
    const date = Date.parse(reader.values[fields.length]!);
    countMessage(tally, groups, Number.isFinite(date) ? date : 0);
  };
}

const MEMO = 5_000;
const SENT_FIELDS = ["to", "cc", "bcc"];
const ANSWERED_FIELDS = ["from"];
const wire = (fields: readonly string[]) => [...fields, "date"].map((f) => f.toUpperCase());

/**
 * Counts the recipients (To, Cc, Bcc) of \Sent messages not seen before `mark` into `tally`; a new
 * UIDVALIDITY (or none yet) starts the tally over. Returns the new mark.
 */
export async function harvestSent(client: ImapFlow, path: string, mark: FolderMark | null, tally: Tally): Promise<FolderMark> {
  const s = await statusOf(client, path);
  // A new UIDVALIDITY, or more new UIDs than a first read would look at: read the newest window afresh.
  const same = mark !== null && mark.uidValidity === s.uidValidity && s.uidNext - mark.uidNext <= SENT_WINDOW;
  if (!same) tally.clear();
  const from = same ? mark.uidNext : 1;
  if (s.messages === 0 || s.uidNext <= from) return { uidValidity: s.uidValidity, uidNext: Math.max(from, s.uidNext), modseq: s.modseq };
  const count = blockCounter(tally, SENT_FIELDS);
  const seen = await withMailbox(client, path, async (box) => {
    let top = from - 1;
    const collect = youngCollector();
    for (const [range, byUid] of from > 1 ? uidChunks(from, s.uidNext - 1) : seqChunks(Math.max(1, box.exists - SENT_WINDOW + 1), box.exists)) {
      await fetchFieldBlocks(client, range, byUid, wire(SENT_FIELDS), (uid, block) => {
        if (uid < from) return;
        count(block);
        top = Math.max(top, uid);
      });
      collect();
    }
    return top;
  }, { readOnly: true, freshness: "none" });
  return { uidValidity: s.uidValidity, uidNext: Math.max(s.uidNext, seen + 1), modseq: s.modseq };
}

/**
 * Messages per FETCH. imapflow keeps a command's answers until it ends and its parser slows down
 * on long answers: one FETCH of 20,000 ENVELOPEs took ~11.8 s and ~170 MB here, 40 of 500 ~3 s
 * and ~20 MB at the peak (scripts/bench-contacts.ts). With header fields, chunks of 2,000 were
 * again slower than 500 (client CPU 1.25 s against 1.0 s for 20,000 messages).
 */
const CHUNK = 500;

/**
 * A minor collection (`Bun.gc(false)`) after every COLLECT_EVERY chunks of one call. Reading a
 * header block leaves ~5 KB of garbage (imapflow's stream, its parser, our counting), ~110 MB for
 * 20,000 messages, and JSC lets the young generation grow to ~31 MB at the server's live heap before
 * it collects: a first call's peak sat at +46 MB RSS. Collecting after each chunk (500 messages) held
 * it to +15 MB on a new book and +24 MB on the process's very first call (libraries loaded, code
 * compiled), for ~0.2 s more and event-loop delays under 15 ms (scripts/bench-contacts.ts; every
 * 1,000 messages: +19 / +27 MB). Only a book's first read (or a large catch-up) reads many chunks.
 */
const COLLECT_EVERY = 1;

function youngCollector(): () => void {
  let chunks = 0;
  return () => {
    if (++chunks % COLLECT_EVERY === 0) Bun.gc(false);
  };
}

/** Sequence ranges low..high, CHUNK at a time ("*" for the last, which a server then resolves itself). */
function seqChunks(low: number, high: number): Array<[string, boolean]> {
  const out: Array<[string, boolean]> = [];
  for (let lo = low; lo <= high; lo += CHUNK) out.push([lo + CHUNK > high ? `${lo}:*` : `${lo}:${lo + CHUNK - 1}`, false]);
  return out;
}

/** UID ranges low..high, CHUNK UIDs at a time, the last open-ended. */
function uidChunks(low: number, high: number): Array<[string, boolean]> {
  return seqChunks(low, high).map(([range]) => [range, true]);
}

/** INBOX's answered messages counted so far, by UID, with the mark they were counted at. */
export interface AnsweredState {
  mark: FolderMark | null;
  counted: Set<number>;
}

/** Counts the senders (From) of answered INBOX messages not counted before into `tally`, when INBOX changed since `state.mark`. */
export async function harvestAnswered(client: ImapFlow, state: AnsweredState, tally: Tally): Promise<AnsweredState> {
  const s = await statusOf(client, "INBOX");
  const m = state.mark;
  const same = m && m.uidValidity === s.uidValidity;
  if (same && m.modseq !== null && m.modseq === s.modseq && m.uidNext === s.uidNext) return state;
  const counted = same ? state.counted : new Set<number>();
  if (!same) tally.clear();
  const mark = { uidValidity: s.uidValidity, uidNext: s.uidNext, modseq: s.modseq };
  if (s.messages === 0) return { mark, counted };
  await withMailbox(client, "INBOX", async () => {
    const answered = ((await client.search({ answered: true }, { uid: true })) || []).sort((a, b) => a - b).slice(-ANSWERED_WINDOW);
    const fresh = answered.filter((uid) => !counted.has(uid));
    if (fresh.length === 0) return;
    const count = blockCounter(tally, ANSWERED_FIELDS);
    const collect = youngCollector();
    for (let i = 0; i < fresh.length; i += CHUNK) {
      const part = fresh.slice(i, i + CHUNK);
      const wanted = new Set(part);
      await fetchFieldBlocks(client, toSet(part), true, wire(ANSWERED_FIELDS), (uid, block) => {
        if (!wanted.has(uid) || counted.has(uid)) return;
        count(block);
        counted.add(uid);
      });
      collect();
    }
  }, { readOnly: true, freshness: "none" });
  return { mark, counted };
}
