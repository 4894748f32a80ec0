// Ends what a token holds in this process when it is revoked anywhere: polls the store's revocation
// signal (src/store/revocations.ts) about once a second and fires the in-process revocation event
// (./token-events.ts) for every token revoked since the last poll. That reaches revocations made by
// `mailbox-mcp revoke` in another process, or by another instance sharing the store; ones this
// process made itself fire a second time, which the listeners take as a no-op.
// Idle cost: one primary-key range query per interval (docs/owner.md "Revocation signal").
import type { Logger } from "../log.ts";
import type { Revocation } from "../store/revocations.ts";
import type { TokenEvents } from "./token-events.ts";

/** With the SSE stream's close and the IMAP logout, revocation takes effect within 2 s (issue 14). */
export const REVOCATION_POLL_MS = 1000;
const BATCH = 500;

export interface RevocationSource {
  latest(): Promise<number>;
  after(seq: number, limit?: number): Promise<Revocation[]>;
}

export interface RevocationPoller {
  /** Runs one poll now (tests; shutdown does not need it). */
  poll(): Promise<void>;
  stop(): void;
}

export async function startRevocationPoller(
  source: RevocationSource, events: TokenEvents, log: Logger, everyMs = REVOCATION_POLL_MS,
): Promise<RevocationPoller> {
  // Revocations from before this process started hold nothing here: begin at the newest.
  let cursor = await source.latest();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function poll(): Promise<void> {
    for (;;) {
      const batch = await source.after(cursor, BATCH);
      for (const r of batch) {
        await events.emitRevoked(r.tokenId);
        cursor = r.seq;
      }
      if (batch.length < BATCH) return;
    }
  }

  async function tick(): Promise<void> {
    try {
      await poll();
    } catch (err) {
      log.error("revocation poll failed", { error: (err as Error).message });
    }
    schedule();
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(tick, everyMs);
    timer.unref();
  }

  schedule();
  return {
    poll,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
