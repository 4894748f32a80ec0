// Failed-login limiter for POST /oauth/connect (DESIGN §3, §7): at most 5 failed mail-server logins per
// 15 minutes per client IP and per mailbox address. Only failures are recorded. In memory, per process,
// driven by the injected clock (a sliding window of failure times per key).
import type { Clock } from "../clock.ts";

export interface RateLimitOptions {
  max: number;
  windowMs: number;
}

export const CONNECT_LIMIT: RateLimitOptions = { max: 5, windowMs: 15 * 60_000 };

export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly opts: RateLimitOptions = CONNECT_LIMIT,
  ) {}

  /** Failure times still inside the window; drops the key when none remain. */
  private recent(key: string): number[] {
    const since = this.clock() - this.opts.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (times.length) this.failures.set(key, times);
    else this.failures.delete(key);
    return times;
  }

  /** Seconds until another attempt is allowed for every key (RFC 9110 §10.2.3 Retry-After), or 0. */
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
    for (const key of keys) this.failures.set(key, [...this.recent(key), now].slice(-this.opts.max));
  }

  /** Forget keys whose failures all left the window (keeps memory bounded under a spray of addresses). */
  sweep(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
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

/**
 * The limiter keys of one attempt: the client (IPv6 by /64, so rotating addresses inside one
 * allocation does not reset the count), the mailbox address, and the login actually tried on
 * that server — the username may differ from the address, and guessing must not dodge the limit
 * by changing the address field alone.
 */
export function connectKeys(ip: string, login: { email: string; username: string; imapHost: string }): string[] {
  const norm = (s: string) => s.trim().toLowerCase();
  return [
    `ip:${ipv6Prefix64(ip) ?? ip}`,
    `mailbox:${norm(login.email)}`,
    `login:${norm(login.imapHost)}:${norm(login.username)}`,
  ];
}

/** The limiter key of one client address alone (IPv6 by /64, as in connectKeys). */
export function addressKey(ip: string): string {
  return `ip:${ipv6Prefix64(ip) ?? ip}`;
}
