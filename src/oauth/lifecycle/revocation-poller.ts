// Ends what a token holds in this process when it is revoked anywhere: reads the store's revocation
// signal (src/store/revocations.ts) and fires the in-process revocation event (./token-events.ts)
// for every token revoked since the last read (or the mailbox-removed event, for a mailbox taken
// out of a live token's connection). That reaches revocations made by `mailbox-mcp
// revoke` in another process, or by another instance sharing the store; ones this process made
// itself fire a second time, which the listeners take as a no-op.
// When to read (docs/owner.md "Revocation signal"): on Postgres, at each NOTIFY of a revocation and
// at each (re)subscription, plus a slow backstop poll; on SQLite, which cannot signal across
// processes, a poll about once a second (one primary-key range query).
import type { Logger } from "../../log.ts";
import type { Revocation } from "../../store/revocations.ts";
import type { TokenEvents } from "./token-events.ts";

/** With the SSE stream's close and the IMAP logout, revocation takes effect within 2 s (docs/owner.md §2). */
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

/** Reads the source from a cursor, one read at a time: a wake during a read runs one more after it, so none is lost. */
class RevocationReader {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly source: RevocationSource,
    private readonly events: TokenEvents,
    /** Revocations from before this process started hold nothing here: it begins at the newest. */
    private cursor: number,
  ) {}

  poll(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Resolves once no read is under way (its failure is the poll's to log, not the caller's). */
  async idle(): Promise<void> {
    await this.running?.catch(() => {});
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      await this.readAll();
    } while (this.again);
  }

  private async readAll(): Promise<void> {
    for (;;) {
      const batch = await this.source.after(this.cursor, BATCH);
      for (const r of batch) {
        await (r.position === undefined ? this.events.emitRevoked(r.tokenId) : this.events.emitMailboxRemoved(r.tokenId, r.position));
        this.cursor = r.seq;
      }
      if (batch.length < BATCH) return;
    }
  }
}

export async function startRevocationPoller(
  source: RevocationSource, events: TokenEvents, log: Logger, everyMs = REVOCATION_POLL_MS, backstopMs = REVOCATION_BACKSTOP_MS,
): Promise<RevocationPoller> {
  const reader = new RevocationReader(source, events, await source.latest());
  const poll = async () => {
    try {
      await reader.poll();
    } catch (err) {
      log.error("revocation poll failed", { error: (err as Error).message });
    }
  };
  const subscription = source.subscribe ? await source.subscribe(() => void poll()) : null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => void poll().then(schedule), subscription ? backstopMs : everyMs);
    timer.unref();
  };
  schedule();
  return {
    poll: () => reader.poll(),
    pushed: subscription !== null,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await subscription?.unlisten().catch(() => {});
      // A read under way ends before stop() does: the service closes the store it reads next.
      await reader.idle();
    },
  };
}
