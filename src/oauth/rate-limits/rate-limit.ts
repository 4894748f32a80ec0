// Sliding-window limiters for the unauthenticated endpoints (docs/design.md §3, §7; docs/oauth.md §5), one
// per entry of the table in limits.ts. The events live in the store (src/store/limits.ts), so every
// limit holds across all the instances sharing it, not per process; the use cases see only `Limiter`.
import type { LimitStore, Window } from "../../store/limits.ts";
import { LIMIT_NAMES, LIMITS, type LimitName } from "./table.ts";
import { clientKey } from "./client-key.ts";

export { clientKey };

/** A slot taken under every key of an attempt. Kept, it counts; released, it is as if never taken. */
export interface Slot {
  release(): Promise<void>;
}

/** What the use cases need of a limiter. */
export interface Limiter {
  /**
   * Takes a slot under every key at once, or says how many seconds to wait (RFC 9110 §10.2.3).
   * Check and take are one step, so concurrent attempts (on any instance) cannot all pass a check
   * before any counts.
   */
  reserve(keys: string[]): Promise<Slot | { retryAfter: number }>;
}

/** A Limiter over the store's events; `bucket` names the limit, so limits with equal keys stay apart. */
export class StoreLimiter implements Limiter {
  constructor(
    private readonly store: LimitStore,
    private readonly bucket: LimitName,
    private readonly opts: Window = LIMITS[bucket],
  ) {}

  async reserve(keys: string[]): Promise<Slot | { retryAfter: number }> {
    const r = await this.store.reserve(this.bucket, keys, this.opts);
    if ("waitMs" in r) return { retryAfter: Math.max(1, Math.ceil(r.waitMs / 1000)) };
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await this.store.release(r.slot);
      },
    };
  }

  /** Forget events that left the window (the table stays bounded under a spray of addresses): purge.ts. */
  sweep(): Promise<void> {
    return this.store.sweep(this.bucket, this.opts.windowMs);
  }
}

/** One limiter per limit of the table, by its name. */
export type Limiters = Record<LimitName, Limiter>;

/** The limiters of every limit in the table, over the store's events. */
export function storeLimiters(store: LimitStore): Limiters {
  const limiters = {} as Limiters;
  for (const name of LIMIT_NAMES) limiters[name] = new StoreLimiter(store, name);
  return limiters;
}

/**
 * The limiter keys of one attempt: the client, the mailbox address, and the login actually tried
 * on that server — the username may differ from the address, and guessing must not dodge the
 * limit by changing the address field alone.
 */
export function connectKeys(ip: string, login: { email: string; username: string; imapHost: string }): string[] {
  const norm = (s: string) => s.trim().toLowerCase();
  return [clientKey(ip), `mailbox:${norm(login.email)}`, `login:${norm(login.imapHost)}:${norm(login.username)}`];
}

