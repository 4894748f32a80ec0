// Sliding-window limiters for the unauthenticated endpoints (DESIGN §3, §7; docs/oauth.md §5): e.g. at
// most 5 failed mail-server logins per 15 minutes per client IP, per mailbox address and per login.
// In memory, per process, driven by the injected clock (a window of event times per key). The
// routes use only the `Limiter` interface, so a shared-store implementation can replace this one.
import type { Clock } from "../clock.ts";

export interface RateLimitOptions {
  max: number;
  windowMs: number;
}

export const CONNECT_LIMIT: RateLimitOptions = { max: 5, windowMs: 15 * 60_000 };

/** A slot taken under every key of an attempt. Kept, it counts; released, it is as if never taken. */
export interface Slot {
  release(): void;
}

/** What the routes need of a limiter. */
export interface Limiter {
  /**
   * Takes a slot under every key at once, or says how many seconds to wait (RFC 9110 §10.2.3).
   * Check and take are one step, so concurrent attempts cannot all pass a check before any counts.
   */
  reserve(keys: string[]): Slot | { retryAfter: number };
  /** Forget keys whose events all left the window (memory stays bounded under a spray of addresses). */
  sweep(): void;
}

export class FailureLimiter implements Limiter {
  private readonly events = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly opts: RateLimitOptions = CONNECT_LIMIT,
  ) {}

  /** Event times still inside the window; drops the key when none remain. */
  private recent(key: string): number[] {
    const since = this.clock() - this.opts.windowMs;
    const times = (this.events.get(key) ?? []).filter((t) => t > since);
    if (times.length) this.events.set(key, times);
    else this.events.delete(key);
    return times;
  }

  /** Seconds until another attempt is allowed for every key, or 0. */
  retryAfter(keys: string[]): number {
    let waitMs = 0;
    for (const key of keys) {
      const times = this.recent(key);
      if (times.length < this.opts.max) continue;
      const oldestCounted = times[times.length - this.opts.max]!;
      waitMs = Math.max(waitMs, oldestCounted + this.opts.windowMs - this.clock());
    }
    return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
  }

  recordFailure(keys: string[]): void {
    const now = this.clock();
    for (const key of keys) this.events.set(key, [...this.recent(key), now].slice(-this.opts.max));
  }

  reserve(keys: string[]): Slot | { retryAfter: number } {
    const retryAfter = this.retryAfter(keys);
    if (retryAfter > 0) return { retryAfter };
    const at = this.clock();
    for (const key of keys) this.events.set(key, [...this.recent(key), at]);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        for (const key of keys) this.forget(key, at);
      },
    };
  }

  /** Removes one event at time `at` (equal times are interchangeable). */
  private forget(key: string, at: number): void {
    const times = this.events.get(key);
    const i = times?.lastIndexOf(at) ?? -1;
    if (i < 0) return;
    times!.splice(i, 1);
    if (!times!.length) this.events.delete(key);
  }

  sweep(): void {
    for (const key of [...this.events.keys()]) this.recent(key);
  }
}

/** The first four hextets of an IPv6 address: one subscriber usually holds a whole /64. */
function ipv6Prefix64(ip: string): string | null {
  if (!ip.includes(":") || ip.includes(".")) return null; // IPv4, or IPv4-mapped (counted as is)
  const [head = "", tail] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":") + "::/64";
}

/** The limiter key of a client address: IPv6 by /64, so rotating addresses inside one allocation does not reset a count. */
export function clientKey(ip: string): string {
  return `ip:${ipv6Prefix64(ip) ?? ip}`;
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

