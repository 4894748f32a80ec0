// Another client's flag change, as the server reports it: an unsolicited FETCH carrying only FLAGS
// (RFC 3501 §7.4.2; with CONDSTORE its MODSEQ, RFC 7162 §3.2.4; with QRESYNC or at Gmail its UID or
// labels). It changes no message's place in the folder, so a call whose answer does not depend on
// flags for which messages it holds need only run again when the change names a message it has
// shown, and not even then when the change came with the answer it names, which then takes it
// (docs/freshness.md "Others' flag changes").
import type { FetchMessageObject } from "imapflow";

/** The messages a call has fetched so far, by sequence number and UID: what its answer shows. */
export interface Shown {
  seqs: Set<number>;
  uids: Set<number>;
}

/** The counters a flag change moves (./client.ts ViewTracking). */
export interface FlagCounters {
  /** Every flag change reported. */
  flagChanges: number;
  /** Those naming a message of `shown`. */
  shownFlagChanges: number;
  /** Set while a call that tells the two apart runs (./mailbox.ts verified). */
  shown?: Shown;
}

/** The data items an unsolicited flag change may carry, as imapflow's parser gives their names. */
const FLAG_ITEMS = new Set(["FLAGS", "UID", "MODSEQ", "X-GM-LABELS"]);

/** The keys of a FETCH answer, as imapflow formats it, that such a change may fill. */
const FLAG_KEYS = new Set(["seq", "uid", "flags", "flagColor", "modseq", "labels", "id"]);

type Untagged = { command?: unknown; attributes?: unknown[] };

/**
 * The message an untagged FETCH (as parsed, before imapflow formats it) names, when it carries
 * flags and nothing else; null for any other FETCH.
 */
export function flagChangeOf(untagged: Untagged): { seq: number; uid: number | undefined } | null {
  const items = untagged.attributes?.[1];
  const seq = Number(untagged.command);
  if (!Array.isArray(items) || items.length === 0 || items.length % 2 !== 0 || !Number.isSafeInteger(seq) || seq < 1) return null;
  let flags = false;
  let uid: number | undefined;
  for (let i = 0; i < items.length; i += 2) {
    const key = items[i] as { type?: string; value?: unknown; section?: unknown; partial?: unknown };
    if (key?.type !== "ATOM" || key.section || key.partial || typeof key.value !== "string") return null;
    const name = key.value.toUpperCase();
    if (!FLAG_ITEMS.has(name)) return null;
    if (name === "FLAGS" || name === "X-GM-LABELS") flags = true;
    if (name === "UID") uid = Number((items[i + 1] as { value?: unknown })?.value) || undefined;
  }
  return flags ? { seq, uid } : null;
}

/** A FETCH answer (formatted) that carries flags and nothing else. */
export function isFlagOnlyAnswer(msg: FetchMessageObject): boolean {
  if ((!msg.flags && !msg.labels) || !Number.isSafeInteger(msg.seq) || msg.seq < 1) return false;
  for (const key of Object.keys(msg)) if (!FLAG_KEYS.has(key)) return false;
  return true;
}

/** Counts a flag change naming message `seq` (and `uid` when the server gave it). */
export function noteFlagChange(t: FlagCounters, seq: number, uid: number | undefined): void {
  t.flagChanges++;
  const shown = t.shown;
  if (shown && (shown.seqs.has(seq) || (uid !== undefined && shown.uids.has(uid)))) t.shownFlagChanges++;
}

/**
 * A flag change naming `target`, an answer of the same FETCH, given to it: reported after the answer,
 * it is the newer (a server reports in the order things happened; Dovecot's answer shows the change
 * already, a server answering from its view before the change would not).
 */
export function applyFlagChange(target: FetchMessageObject, change: FetchMessageObject): void {
  if (change.flags) target.flags = change.flags;
  if (change.labels) target.labels = change.labels;
  if (change.modseq !== undefined) target.modseq = change.modseq;
}

/** Records a message the running call fetched: a later flag change naming it makes the call run again. */
export function noteShown(t: FlagCounters, msg: FetchMessageObject): void {
  t.shown?.seqs.add(msg.seq);
  if (typeof msg.uid === "number") t.shown?.uids.add(msg.uid);
}
