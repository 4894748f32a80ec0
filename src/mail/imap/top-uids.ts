// The UIDs at the top (newest end) of a selected folder, as the last get_recent_emails saw them.
// While the server has reported no change since (no EXISTS, EXPUNGE or VANISHED, no FETCH but of
// flags alone, which moves no message: ./client.ts, ./flag-updates.ts),
// "the newest N messages" is "UID FETCH lowest:*" of these: one command whose end-of-command update
// (RFC 3501 §7) then proves it current, instead of NOOP + FETCH. Any change makes it unknown again.
import type { ImapFlow } from "imapflow";
import { tracking } from "./client.ts";

interface Top {
  path: string;
  /** Ascending: the UIDs of sequence numbers exists-len+1 .. exists. */
  uids: number[];
  exists: number;
  changes: number;
  selects: number;
}

const tops = new WeakMap<ImapFlow, Top>();

/** Counters as they stand; take them before the FETCH whose answer will be remembered. */
export function viewStamp(client: ImapFlow): { changes: number; selects: number } | null {
  const t = tracking(client);
  return t && { changes: t.changes, selects: t.selects };
}

/** Remembers `uidsDesc` (newest first) as the top of `path`, valid while nothing changes after `stamp`. */
export function rememberTop(client: ImapFlow, path: string, exists: number, uidsDesc: number[], stamp: { changes: number; selects: number } | null): void {
  if (stamp) tops.set(client, { path, exists, uids: [...uidsDesc].reverse(), ...stamp });
}

/** The UIDs (ascending) of the newest `limit` messages of the selected `path`, or null when not known for sure. */
export function knownTop(client: ImapFlow, path: string, exists: number, limit: number): number[] | null {
  const top = tops.get(client);
  const t = tracking(client);
  if (!top || !t || top.path !== path || top.exists !== exists) return null;
  if (top.changes !== t.changes || top.selects !== t.selects) return null;
  if (exists === 0 || top.uids.length < Math.min(limit, exists)) return null;
  return top.uids.slice(Math.max(0, top.uids.length - limit));
}
