// Ends what a token holds in this process when it is revoked anywhere: reads the store's revocation
// signal (src/store/revocations.ts) and fires the in-process revocation event (./token-events.ts)
// for every token revoked since the last read. That reaches revocations made by `mailbox-mcp
// revoke` in another process, or by another instance sharing the store; ones this process made
// itself fire a second time, which the listeners take as a no-op.
// When to read (docs/owner.md "Revocation signal"): on Postgres, at each NOTIFY of a revocation and
// at each (re)subscription, plus a slow backstop poll; on SQLite, which cannot signal across
// processes, a poll about once a second (one primary-key range query).
import type { Logger } from "../log.ts";
import type { Revocation } from "../store/revocations.ts";
import type { TokenEvents } from "./token-events.ts";

/** With the SSE stream's close and the IMAP logout, revocation takes effect within 2 s (issue 14). */
export const REVOCATION_POLL_MS = 1000;
/** With notifications, polling is only a backstop (a notification lost with its connection is caught on re-subscribe anyway). */
export const REVOCATION_BACKSTOP_MS = 30_000;
const BATCH = 500;

export interface RevocationSource {
  latest(): Promise<number>;
  after(seq: number, limit?: number): Promise<Revocation[]>;
  /** Push, where the store has it: `wake` on each new revocation; null when the caller must poll. */
  subscribe?(wake: () => void): Promise<{ unlisten(): Promise<void> } | null>;
}

export interface RevocationPoller {
  /** Reads now (tests; shutdown does not need it). */
  poll(): Promise<void>;
  /** True when the store pushes revocations (Postgres LISTEN) and polling is only a backstop. */
  readonly pushed: boolean;
  stop(): Promise<void>;
}

export async function startRevocationPoller(
  source: RevocationSource, events: TokenEvents, log: Logger, everyMs = REVOCATION_POLL_MS, backstopMs = REVOCATION_BACKSTOP_MS,
): Promise<RevocationPoller> {
  // Revocations from before this process started hold nothing here: begin at the newest.
  let cursor = await source.latest();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  let again = false;

  async function readAll(): Promise<void> {
    for (;;) {
      const batch = await source.after(cursor, BATCH);
      for (const r of batch) {
        await events.emitRevoked(r.tokenId);
        cursor = r.seq;
      }
      if (batch.length < BATCH) return;
    }
  }

  /** One read at a time; a wake during a read runs one more after it, so no notification is lost. */
  function poll(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await readAll();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  const wake = () => void poll().catch((err: unknown) => log.error("revocation poll failed", { error: (err as Error).message }));
  const subscription = source.subscribe ? await source.subscribe(wake) : null;
  const interval = subscription ? backstopMs : everyMs;

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
    timer = setTimeout(tick, interval);
    timer.unref();
  }

  schedule();
  return {
    poll,
    pushed: subscription !== null,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await subscription?.unlisten().catch(() => {});
    },
  };
}
