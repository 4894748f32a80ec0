// The newest page fetched in a connection's first turn (./early-session.ts): a UID FETCH from where
// that page began when this process last read the folder (./view-hints.ts), written behind the
// EXAMINE, so a first get_recent_emails needs no second turn. Its answers are collected here, not by
// imapflow (which sent no such command), bounded like any command's, and handed to the first call
// only if nothing changed the folder meanwhile; the call itself checks they are its page
// (../read/recent.ts), and fetches as before when they are not.
import type { FetchMessageObject } from "imapflow";
import { PREFETCH_TAG } from "./early-plan.ts";
import { MAX_COMMAND_BYTES } from "./response-limits.ts";

/** The prefetch, from its line to its answers. */
export class PendingPrefetch {
  readonly answers: unknown[] = [];
  /** Written (after the EXAMINE it follows: ./client.ts send). */
  written = false;
  settled = false;
  bytes = 0;
  readonly done: Promise<boolean>;
  settle!: (ok: boolean) => void;

  constructor(readonly line: Buffer) {
    this.done = new Promise((resolve) => {
      this.settle = (ok) => { if (!this.settled) { this.settled = true; resolve(ok); } };
    });
  }
}

/** The first call's page as the first turn fetched it. */
export interface Prefetched {
  path: string;
  messages: FetchMessageObject[];
}

/**
 * A response while the prefetch runs: its tagged answer settles it (true), other bytes are counted
 * against the one-command bound (false past it: the connection is then failed). Null: not its.
 */
export function prefetchResponse(p: PendingPrefetch, payload: Buffer, literals: number): boolean | null {
  p.bytes += payload.length + literals;
  if (p.bytes > MAX_COMMAND_BYTES) return false;
  if (payload.length > 3 && payload.toString("latin1", 0, 3) === `${PREFETCH_TAG} `) {
    p.settle(/^\S+ OK\b/i.test(payload.toString("latin1", 0, Math.min(payload.length, 64))));
  }
  return null;
}

/** An untagged FETCH while the prefetch runs: kept (one that is not an answer to it voids the prefetch: prefetched()). */
export function capturePrefetch(p: PendingPrefetch, untagged: unknown): boolean {
  if (p.settled) return false;
  p.answers.push(untagged);
  return true;
}

/** The answers as imapflow formats a FETCH's, or null when the prefetch failed or was disturbed. */
export async function prefetched(p: PendingPrefetch, path: string, mailbox: unknown, changed: () => boolean): Promise<Prefetched | null> {
  if (!(await p.done) || changed()) return null;
  const { formatMessageResponse } = await import("imapflow/lib/tools.js") as {
    formatMessageResponse(u: unknown, m: unknown): Promise<FetchMessageObject>;
  };
  const messages: FetchMessageObject[] = [];
  try {
    for (const u of p.answers) {
      const m = await formatMessageResponse(u, mailbox);
      if (typeof m.uid !== "number" || !m.envelope || !m.bodyStructure) return null; // not an answer to it: someone else's flag change
      messages.push(m);
    }
  } catch {
    return null; // an answer imapflow cannot format: the call fetches its page itself, as imapflow's own FETCH would fail it
  } finally {
    p.answers.length = 0;
  }
  return { path, messages };
}
