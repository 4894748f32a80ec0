// Concurrent tool calls per token (docs/decisions.md "Per-account limits"). All of a token's
// sessions share one pooled IMAP connection, on which calls queue for the mailbox lock anyway; a
// flood of parallel calls only piles up memory (each holds its arguments and its partial result)
// and starves the token's own later calls. A few run; a few more wait their turn in FIFO order;
// beyond that a call is refused at once with a "busy" tool error the model can act on.
import { BusyError } from "../tools/result.ts";

export interface CallLimits {
  /** Tool calls of one token running at once. */
  maxRunning: number;
  /** Further calls of that token waiting for a turn; one more is refused as busy. */
  maxWaiting: number;
}

export const CALL_LIMITS: CallLimits = { maxRunning: 4, maxWaiting: 8 };

interface Waiter {
  admit(): void;
}

interface Lane {
  running: number;
  waiting: Waiter[];
}

export class ToolCallLimiter {
  private readonly lanes = new Map<string, Lane>();
  readonly limits: CallLimits;

  constructor(limits: Partial<CallLimits> = {}) {
    this.limits = { ...CALL_LIMITS, ...limits };
  }

  /** Calls of `tokenId` running and waiting now (tests, health). */
  load(tokenId: string): { running: number; waiting: number } {
    const lane = this.lanes.get(tokenId);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  /**
   * Runs fn in one of the token's slots, waiting for one if need be. Throws BusyError when the
   * queue is full, and the signal's reason when the request is cancelled (or its session closed)
   * while it waits; a cancelled waiter never takes a slot.
   */
  async run<T>(tokenId: string, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    await this.acquire(tokenId, signal);
    try {
      return await fn();
    } finally {
      this.release(tokenId);
    }
  }

  private acquire(tokenId: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const lane = this.lanes.get(tokenId) ?? { running: 0, waiting: [] };
    this.lanes.set(tokenId, lane);
    if (lane.running < this.limits.maxRunning && lane.waiting.length === 0) {
      lane.running++;
      return Promise.resolve();
    }
    if (lane.waiting.length >= this.limits.maxWaiting) {
      this.forgetIfIdle(tokenId, lane);
      throw new BusyError(
        `Too many tool calls at once on this connection: ${lane.running} are running and ${lane.waiting.length} waiting. ` +
          "Wait for them to finish, then try again (or make fewer calls in parallel).",
      );
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        lane.waiting.splice(lane.waiting.indexOf(waiter), 1);
        this.forgetIfIdle(tokenId, lane);
        reject(signal.reason);
      };
      const waiter: Waiter = {
        admit: () => {
          signal.removeEventListener("abort", onAbort);
          lane.running++;
          resolve();
        },
      };
      lane.waiting.push(waiter);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  private release(tokenId: string): void {
    const lane = this.lanes.get(tokenId);
    if (!lane) return;
    lane.running--;
    lane.waiting.shift()?.admit();
    this.forgetIfIdle(tokenId, lane);
  }

  private forgetIfIdle(tokenId: string, lane: Lane): void {
    if (lane.running === 0 && lane.waiting.length === 0) this.lanes.delete(tokenId);
  }
}
