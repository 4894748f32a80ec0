// Send caps per grant (docs/design.md §7; MAILBOX_MCP_SEND_LIMITS, default 30 an hour and 200 a day):
// two sliding windows over the store's limit events (src/store/limits.ts), keyed by the grant, so
// every instance on one store counts the same sends. A message takes one event in each window when
// it goes out, in the same transaction as its at-most-once claim (src/store/send-claims.ts); a send
// that fails before the server took it gives both back. A refusal says when the next send is
// possible, so the person (or the model) knows how long to wait.
import type { SendLimits } from "../config.ts";
import type { LimitStore } from "../store/limits.ts";
import type { CapWindow } from "../store/send-claims.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The store's bucket names of the two windows, and how long their events count. */
const SEND_CAP_BUCKETS = { "send-hour": HOUR, "send-day": DAY } as const;

/** Forgets the events that left their window; part of the one purge schedule (src/service.ts). */
export async function sweepSendCaps(store: LimitStore): Promise<void> {
  for (const [bucket, windowMs] of Object.entries(SEND_CAP_BUCKETS)) await store.sweep(bucket, windowMs);
}

/** Over a cap: which one, and how long until a send fits again. */
export interface CapRefusal {
  window: "hour" | "day";
  max: number;
  waitMs: number;
}

const LABELS: Array<CapRefusal["window"]> = ["hour", "day"];

export class SendCaps {
  /** In this order in the store's transaction; a refusal names its index. */
  readonly windows: readonly CapWindow[];

  constructor(private readonly store: LimitStore, limits: SendLimits) {
    this.windows = [
      { bucket: "send-hour", w: { max: limits.perHour, windowMs: HOUR } },
      { bucket: "send-day", w: { max: limits.perDay, windowMs: DAY } },
    ];
  }

  /** The refusal of window `index`, full for `waitMs` more. */
  refusal(index: number, waitMs: number): CapRefusal {
    return { window: LABELS[index]!, max: this.windows[index]!.w.max, waitMs };
  }

  /** Sends counted now in each window against its cap: the owner's page shows them (docs/owner.md §7). */
  async used(grantId: string): Promise<Array<{ window: CapRefusal["window"]; used: number; max: number }>> {
    return Promise.all(this.windows.map(async ({ bucket, w }, index) =>
      ({ window: LABELS[index]!, used: await this.store.count(bucket, grantId, w.windowMs), max: w.max })));
  }

  /** Whether a send would fit now, taking nothing: asked before the person is asked to confirm. */
  async check(grantId: string): Promise<CapRefusal | null> {
    for (const [index, { bucket, w }] of this.windows.entries()) {
      const waitMs = await this.store.wait(bucket, [grantId], w);
      if (waitMs > 0) return this.refusal(index, waitMs);
    }
    return null;
  }
}
