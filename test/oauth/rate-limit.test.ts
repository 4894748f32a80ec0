import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { connectKeys, FailureLimiter } from "../../src/oauth/rate-limit.ts";

const login = (email: string, username = email, imapHost = "imap.x.test") => ({ email, username, imapHost });

describe("failed-login limiter (5 per 15 minutes per key)", () => {
  test("blocks after the fifth failure until the oldest leaves the window", () => {
    const clock = manualClock();
    const limiter = new FailureLimiter(clock);
    const keys = connectKeys("1.2.3.4", login("A@x.test"));
    for (let i = 0; i < 5; i++) {
      expect(limiter.retryAfter(keys)).toBe(0);
      limiter.recordFailure(keys);
      clock.advance(60_000);
    }
    // 5 failures at t=0..4 min, now t=5 min: the first expires at t=15 min.
    expect(limiter.retryAfter(keys)).toBe(10 * 60);
    clock.advance(10 * 60_000 - 1000);
    expect(limiter.retryAfter(keys)).toBe(1);
    clock.advance(1000);
    expect(limiter.retryAfter(keys)).toBe(0);
  });

  test("per IP and per mailbox: either key alone blocks", () => {
    const clock = manualClock();
    const limiter = new FailureLimiter(clock);
    for (let i = 0; i < 5; i++) limiter.recordFailure(connectKeys("9.9.9.9", login(`u${i}@x.test`)));
    expect(limiter.retryAfter(connectKeys("9.9.9.9", login("new@x.test")))).toBeGreaterThan(0);
    expect(limiter.retryAfter(connectKeys("8.8.8.8", login("new@x.test")))).toBe(0);
    for (let i = 0; i < 5; i++) limiter.recordFailure(connectKeys(`10.0.0.${i}`, login("Victim@X.test")));
    expect(limiter.retryAfter(connectKeys("7.7.7.7", login("victim@x.test ")))).toBeGreaterThan(0);
  });

  test("sweep forgets keys whose failures expired", () => {
    const clock = manualClock();
    const limiter = new FailureLimiter(clock);
    limiter.recordFailure(["k"]);
    clock.advance(15 * 60_000);
    limiter.sweep();
    expect((limiter as unknown as { events: Map<string, number[]> }).events.size).toBe(0);
  });

  test("changing the address field does not dodge the limit on the login actually tried", () => {
    const limiter = new FailureLimiter(manualClock());
    for (let i = 0; i < 5; i++) limiter.recordFailure(connectKeys(`203.0.113.${i}`, login(`decoy${i}@x.test`, "Victim@Gmail.com", "imap.gmail.com")));
    expect(limiter.retryAfter(connectKeys("198.51.100.1", login("other@x.test", "victim@gmail.com", "IMAP.gmail.com")))).toBeGreaterThan(0);
    expect(limiter.retryAfter(connectKeys("198.51.100.1", login("other@x.test", "victim@gmail.com", "imap.other.test")))).toBe(0);
  });

  test("IPv6 clients are counted by /64", () => {
    const limiter = new FailureLimiter(manualClock());
    for (let i = 1; i <= 5; i++) limiter.recordFailure(connectKeys(`2001:db8:1:2::${i}`, login(`u${i}@x.test`)));
    expect(limiter.retryAfter(connectKeys("2001:0db8:0001:0002:ffff::9", login("fresh@x.test")))).toBeGreaterThan(0);
    expect(limiter.retryAfter(connectKeys("2001:db8:1:3::1", login("fresh@x.test")))).toBe(0);
  });

  test("reserve: check and count in one step; a released slot is as if never taken", () => {
    const clock = manualClock();
    const limiter = new FailureLimiter(clock);
    const slots = Array.from({ length: 5 }, () => limiter.reserve(["k"]));
    expect(slots.every((s) => "release" in s)).toBe(true);
    expect(limiter.reserve(["k"])).toEqual({ retryAfter: 15 * 60 });
    (slots[0] as { release(): void }).release();
    (slots[0] as { release(): void }).release(); // twice is once
    const sixth = limiter.reserve(["k"]);
    expect("release" in sixth).toBe(true);
    expect("retryAfter" in limiter.reserve(["k"])).toBe(true);
  });

  test("reserve takes every key or none", () => {
    const limiter = new FailureLimiter(manualClock());
    for (let i = 0; i < 5; i++) limiter.recordFailure(["full"]);
    expect("retryAfter" in limiter.reserve(["free", "full"])).toBe(true);
    expect(limiter.retryAfter(["free"])).toBe(0);
    for (let i = 0; i < 4; i++) limiter.reserve(["free"]);
    expect(limiter.retryAfter(["free"])).toBe(0);
  });
});
