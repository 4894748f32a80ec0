// What a connection of ours tracks of its selected folder and its start, read by ./mailbox.ts,
// ./top-uids.ts and the read paths (../read/): the counters that prove a view current, and what the
// connection's first turn brought for its first call (./early-session.ts).
import type { FlagCounters } from "./flag-updates.ts";
import type { Prefetched } from "./early-prefetch.ts";

/** What ./mailbox.ts reads to decide whether the selected folder's view can be trusted as current. */
export interface ViewTracking extends FlagCounters {
  /**
   * Why the connection failed, when imapflow's parser refused what the server sent (too large):
   * the command in flight only learns "connection closed".
   */
  streamError?: Error & { code?: string };
  /** Bumped when a SELECT/EXAMINE is *issued*: one issued after a call began is as fresh as a NOOP. */
  selects: number;
  /**
   * Bumped by every unsolicited EXISTS, EXPUNGE, VANISHED or FETCH other than a flag change (those
   * count in FlagCounters, ./flag-updates.ts): another client changed the folder.
   */
  changes: number;
  /**
   * The highest HIGHESTMODSEQ response code (RFC 7162 §3.1.2.1, §3.2.10) seen since the folder was
   * selected, in a SELECT's answer or a command's tagged OK; 0n when none.
   */
  highestModseq: bigint;
  /** When set, the UIDs of VANISHED (EARLIER) responses (RFC 7162 §3.2.10) are collected here. */
  earlier?: number[];
  /** The folder the connection's start EXAMINEd for its first call (./early-session.ts); ./mailbox.ts takes it once. */
  preselected?: string;
  /** The newest page its start fetched (./early-prefetch.ts); ../read/recent.ts takes it once. */
  prefetched?: Prefetched | null;
  /** Tells the pool where a folder's newest page began (./view-hints.ts). */
  noteNewest?: (path: string, low: number) => void;
}
