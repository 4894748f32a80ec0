// get_changes: what changed in a folder since a cursor, without changing anything (EXAMINE, flags
// read only). Where the server has QRESYNC (RFC 7162) one UID FETCH … (CHANGEDSINCE m VANISHED)
// answers everything; with CONDSTORE alone vanished UIDs come from comparing UID sets; without
// either, new messages from UIDNEXT and flag changes are not seen (docs/tools.md "get_changes").
import type { FetchMessageObject, ImapFlow, MailboxObject } from "imapflow";
import { InputError } from "../errors.ts";
import { tracking, type ViewTracking } from "../imap/client.ts";
import { enableExtension } from "../imap/enable.ts";
import { verified, withMailbox } from "../imap/mailbox.ts";
import { countOf, membersOf, mergeRanges, parseSet, rangesFrom, rangesOf, subtractRanges, topBelow, type Range } from "../imap/uid-set.ts";
import { uidNextByStatus } from "../imap/folder-status.ts";
import { encodeChangesCursor, type ChangesCursor } from "./changes-cursor.ts";
import type { CursorSeal } from "./cursor-seal.ts";
import { searchRanges, summaries } from "./pages.ts";
import { labelsOf, type Summary } from "./summary.ts";

export type ChangeMode = "qresync" | "condstore" | "plain";

export interface FlagChange {
  uid: number;
  seen: boolean;
  flagged: boolean;
  answered: boolean;
  labels: string[];
}

export interface Changes {
  folder: string;
  cursor: string;
  full_resync: boolean;
  added: Summary[];
  flags_changed: FlagChange[];
  vanished: number[];
  /** How many were added in all (`added` holds the newest ADDED_MAX). */
  addedTotal: number;
  mode: ChangeMode;
}

export const ADDED_MAX = 100;
// Without QRESYNC the cursor lists the known UIDs while they fit in this many ranges.
const SET_RANGES_MAX = 100;
// The most vanished UIDs one answer lists, as with VANISHED (EARLIER) (../imap/client.ts). UIDs stay
// ranges until then: a cursor is the caller's to send and a SEARCH answer the server's, and either may
// say "1:4294967295", which as one number per UID would hold the server for minutes.
const VANISHED_MAX = 100_000;

/** `prior`: the cursor passed as since, already opened (decodeChangesCursor) before any IMAP work. */
export async function getChanges(client: ImapFlow, folder: string, prior: ChangesCursor | null, seal: CursorSeal): Promise<Changes> {
  const t = tracking(client) ?? { selects: 0, changes: 0, flagChanges: 0, shownFlagChanges: 0, highestModseq: 0n };
  const selectsBefore = t.selects;
  return withMailbox(client, folder, async (first) => {
    const path = first.path;
    if (prior && prior.path !== path) throw new InputError("since", `is a cursor of the folder ${JSON.stringify(prior.path)}: pass that folder, or leave since out to start afresh`);
    const mode = await modeOf(client, path);
    const fromStatus = await currentView(client, path, t.selects !== selectsBefore);
    const box = client.mailbox as MailboxObject;
    const stale = prior && (String(box.uidValidity) !== prior.uidValidity || (mode !== "plain" && (box.noModseq || prior.modseq === null)));
    if (!prior || stale) {
      // A UIDNEXT from STATUS may be ahead of the view: NOOP lets the view catch up (RFC 3501 §6.1.2)
      // before freshCursor lists the UIDs below it.
      if (fromStatus && mode !== "qresync") await client.noop();
      return { ...empty(path, mode), full_resync: Boolean(stale), cursor: encodeChangesCursor(seal, await freshCursor(client, t, mode)) };
    }
    // A UID FETCH … VANISHED reports others' changes made meanwhile at its end (then it runs again);
    // the searches of the other modes may not carry EXPUNGE (RFC 3501 §7.4.1): NOOP first, unless
    // the view is a SELECT's that no STATUS ran ahead of.
    if (mode !== "qresync" && fromStatus) await client.noop();
    if (unchangedView(box, t, mode, prior)) return { ...empty(path, mode), full_resync: false, cursor: encodeChangesCursor(seal, prior) };
    return verified(t, () => delta(client, t, mode, prior, seal));
  }, { readOnly: true, freshness: "none" });
}

/**
 * Makes the selected view the folder the server has under that name now. A view selected before
 * this call is selected again (EXAMINE): Dovecot keeps serving a selected folder that another
 * client deleted and re-created, its old UIDVALIDITY and all, and answers STATUS of the selected
 * folder from that same view, so only a new SELECT sees the new folder. One round trip, as a STATUS
 * would be. A SELECT without UIDNEXT (Courier) gets it from STATUS (../imap/folder-status.ts).
 * True when STATUS gave the UIDNEXT.
 */
async function currentView(client: ImapFlow, path: string, selectedNow: boolean): Promise<boolean> {
  if (!selectedNow) await client.mailboxOpen(path, { readOnly: true });
  if ((client.mailbox as MailboxObject).uidNext !== undefined) return false;
  const uidNext = await uidNextByStatus(client, path);
  if (uidNext === null) return false;
  (client.mailbox as MailboxObject).uidNext = uidNext;
  return true;
}

/**
 * The view just selected says nothing changed since the cursor: with QRESYNC enabled every change of
 * flags and every expunge raises HIGHESTMODSEQ (RFC 7162 §3.1, §3.2.10) and a new message raises
 * UIDNEXT, so the same HIGHESTMODSEQ and UIDNEXT (same UIDVALIDITY, checked before) leave nothing for
 * a UID FETCH … CHANGEDSINCE to find: the EXAMINE alone answers (one round trip, not two).
 */
function unchangedView(box: MailboxObject, t: Pick<ViewTracking, "earlier">, mode: ChangeMode, prior: ChangesCursor): boolean {
  if (mode !== "qresync" || prior.modseq === null || t.earlier?.length) return false;
  return box.highestModseq !== undefined && String(box.highestModseq) === prior.modseq && box.uidNext === prior.uidNext;
}

/** QRESYNC where offered (enabled once per connection), else CONDSTORE, else neither. */
async function modeOf(client: ImapFlow, path: string): Promise<ChangeMode> {
  const mode = (await enableExtension(client, "QRESYNC")) ? "qresync" : (await enableExtension(client, "CONDSTORE")) ? "condstore" : "plain";
  if (!client.mailbox) await client.mailboxOpen(path, { readOnly: true }); // ENABLE needed the folder unselected
  return mode;
}

const empty = (folder: string, mode: ChangeMode) => ({ folder, added: [], flags_changed: [], vanished: [], addedTotal: 0, mode });

async function freshCursor(client: ImapFlow, t: Pick<ViewTracking, "highestModseq">, mode: ChangeMode): Promise<ChangesCursor> {
  const box = client.mailbox as MailboxObject;
  // RFC 3501 §2.3.1.1: UIDNEXT is the lowest UID a new message can get; a server that tells it by
  // neither SELECT nor STATUS (currentView asked): above the highest UID there is.
  const uidNext = box.uidNext ?? highestUid(await searchRanges(client, { uid: "1:*" })) + 1;
  const modseq = mode === "plain" ? null : String(box.highestModseq ?? t.highestModseq);
  const base = { path: box.path, uidValidity: String(box.uidValidity), modseq, uidNext, count: null, set: null };
  if (mode === "qresync") return base;
  return { ...base, ...known(uidNext > 1 ? await searchRanges(client, { uid: `1:${uidNext - 1}` }) : []) };
}

const highestUid = (ranges: Array<readonly [number, number]>) => ranges.reduce((top, [, b]) => Math.max(top, b), 0);

function known(ranges: Array<readonly [number, number]>): Pick<ChangesCursor, "count" | "set"> {
  return { count: countOf(ranges), set: ranges.length <= SET_RANGES_MAX ? ranges.map(([a, b]) => (a === b ? `${a}` : `${a}:${b}`)).join(",") : null };
}

async function delta(client: ImapFlow, t: Pick<ViewTracking, "highestModseq" | "earlier">, mode: ChangeMode, prior: ChangesCursor, seal: CursorSeal): Promise<Changes> {
  const box = client.mailbox as MailboxObject;
  const changed = mode === "plain" ? [] : await changedSince(client, t, BigInt(prior.modseq!), mode === "qresync");
  const vanishedEarlier = t.earlier ?? [];
  t.earlier = undefined;
  const added = await addedSince(client, mode, prior, changed);
  let vanished = vanishedEarlier.filter((u) => u < prior.uidNext);
  let next: Pick<ChangesCursor, "count" | "set"> = { count: null, set: null };
  if (mode !== "qresync") {
    const below = prior.uidNext > 1 ? await searchRanges(client, { uid: `1:${prior.uidNext - 1}` }) : [];
    const gone = goneSince(prior, below);
    if (gone === null) return { ...empty(box.path, mode), full_resync: true, cursor: encodeChangesCursor(seal, await freshCursor(client, t, mode)) };
    vanished = gone;
    next = known(mergeRanges([...below, ...added]));
  }
  const highest = [BigInt(prior.modseq ?? 0), t.highestModseq, ...changed.map((m) => m.modseq ?? 0n)].reduce((a, b) => (b > a ? b : a));
  const uidNext = Math.max(prior.uidNext, (added.at(-1)?.[1] ?? 0) + 1);
  return {
    folder: box.path,
    cursor: encodeChangesCursor(seal, { ...prior, modseq: mode === "plain" ? null : String(highest), uidNext, ...next }),
    full_resync: false,
    added: await summaries(client, box.path, topBelow(added, ADDED_MAX, null).uids, ADDED_MAX),
    flags_changed: changed.filter((m) => m.uid < prior.uidNext).sort((a, b) => a.uid - b.uid).map(flagChange),
    vanished: [...new Set(vanished)].sort((a, b) => a - b),
    addedTotal: countOf(added),
    mode,
  };
}

/** The UIDs at or above the cursor's next UID, as sorted ranges: among the changes, or (plain) by SEARCH. */
async function addedSince(client: ImapFlow, mode: ChangeMode, prior: ChangesCursor, changed: FetchMessageObject[]): Promise<Range[]> {
  if (mode !== "plain") return rangesOf(changed.filter((m) => m.uid >= prior.uidNext).map((m) => m.uid));
  // `n:*` names the newest message even when it is below n (RFC 3501 §6.4.8): hence rangesFrom.
  return rangesFrom(await searchRanges(client, { uid: `${prior.uidNext}:*` }), prior.uidNext);
}

/** UID FETCH 1:* (UID FLAGS) (CHANGEDSINCE m [VANISHED]): each changed message once, its latest state. */
async function changedSince(client: ImapFlow, t: Pick<ViewTracking, "earlier">, modseq: bigint, vanished: boolean): Promise<FetchMessageObject[]> {
  if (vanished) t.earlier = [];
  const latest = new Map<number, FetchMessageObject>();
  for await (const msg of client.fetch("1:*", { uid: true, flags: true, labels: true }, { uid: true, changedSince: modseq })) {
    if (typeof msg.uid !== "number" || !msg.flags) continue;
    const seen = latest.get(msg.uid);
    if (!seen || (msg.modseq ?? 0n) >= (seen.modseq ?? 0n)) latest.set(msg.uid, msg);
  }
  return [...latest.values()];
}

/** Without VANISHED: the UIDs the cursor knew that are gone; null when it kept only their number and some went. */
function goneSince(prior: ChangesCursor, below: Array<readonly [number, number]>): number[] | null {
  if (prior.set !== null) return membersOf(subtractRanges(parseSet(prior.set), below), VANISHED_MAX);
  return countOf(below) === prior.count ? [] : null;
}

function flagChange(m: FetchMessageObject): FlagChange {
  const f = m.flags ?? new Set<string>();
  return { uid: m.uid, seen: f.has("\\Seen"), flagged: f.has("\\Flagged"), answered: f.has("\\Answered"), labels: labelsOf(m) };
}
