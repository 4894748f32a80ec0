// Send caps per grant (docs/design.md §7; MAILBOX_MCP_SEND_LIMITS, default 30 an hour and 200 a day):
// two sliding windows over the store's limit events (src/store/limits.ts), keyed by the grant, so
// every instance on one store counts the same sends. A message takes one event in each window
// when it is about to go out; a send that fails before the server took it gives both back. A refusal
// says when the next send is possible, so the person (or the model) knows how long to wait.
import type { SendLimits } from "../../config.ts";
import type { LimitStore, Window } from "../../store/limits.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The store's bucket names of the two windows, and how long their events count. */
const SEND_CAP_BUCKETS = { "send-hour": HOUR, "send-day": DAY } as const;

/** Forgets the events that left their window; part of the one purge schedule (src/service.ts). */
export async function sweepSendCaps(store: LimitStore): Promise<void> {
  for (const [bucket, windowMs] of Object.entries(SEND_CAP_BUCKETS)) await store.sweep(bucket, windowMs);
}

/** A send counted in both windows; release() gives it back. */
export interface SendSlot {
  release(): Promise<void>;
}

/** Over a cap: which one, and how long until a send fits again. */
export interface CapRefusal {
  window: "hour" | "day";
  max: number;
  waitMs: number;
}

export class SendCaps {
  private readonly windows: Array<{ bucket: keyof typeof SEND_CAP_BUCKETS; window: CapRefusal["window"]; w: Window }>;

  constructor(private readonly store: LimitStore, limits: SendLimits) {
    this.windows = [
      { bucket: "send-hour", window: "hour", w: { max: limits.perHour, windowMs: HOUR } },
      { bucket: "send-day", window: "day", w: { max: limits.perDay, windowMs: DAY } },
    ];
  }

  /** Whether a send would fit now, taking nothing: asked before the person is asked to confirm. */
  async check(grantId: string): Promise<CapRefusal | null> {
    for (const { bucket, window, w } of this.windows) {
      const waitMs = await this.store.wait(bucket, [grantId], w);
      if (waitMs > 0) return { window, max: w.max, waitMs };
    }
    return null;
  }

  /** One send in both windows, or the refusal of the first that is full (then nothing is taken). */
  async take(grantId: string): Promise<SendSlot | CapRefusal> {
    const taken: string[] = [];
    for (const { bucket, window, w } of this.windows) {
      const r = await this.store.reserve(bucket, [grantId], w);
      if ("waitMs" in r) {
        for (const slot of taken) await this.store.release(slot);
        return { window, max: w.max, waitMs: r.waitMs };
      }
      taken.push(r.slot);
    }
    return { release: async () => { for (const slot of taken.splice(0)) await this.store.release(slot); } };
  }
}
