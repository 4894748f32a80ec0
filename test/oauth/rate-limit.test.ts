import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { connectKeys, FailureLimiter } from "../../src/oauth/rate-limit.ts";

describe("failed-login limiter (5 per 15 minutes per key)", () => {
  test("blocks after the fifth failure until the oldest leaves the window", () => {
    const clock = manualClock();
    const limiter = new FailureLimiter(clock);
    const keys = connectKeys("1.2.3.4", "A@x.test");
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
    for (let i = 0; i < 5; i++) limiter.recordFailure(connectKeys("9.9.9.9", `u${i}@x.test`));
    expect(limiter.retryAfter(connectKeys("9.9.9.9", "new@x.test"))).toBeGreaterThan(0);
    expect(limiter.retryAfter(connectKeys("8.8.8.8", "new@x.test"))).toBe(0);
    for (let i = 0; i < 5; i++) limiter.recordFailure(connectKeys(`10.0.0.${i}`, "Victim@X.test"));
    expect(limiter.retryAfter(connectKeys("7.7.7.7", "victim@x.test "))).toBeGreaterThan(0);
  });

  test("sweep forgets keys whose failures expired", () => {
    const clock = manualClock();
    const limiter = new FailureLimiter(clock);
    limiter.recordFailure(["k"]);
    clock.advance(15 * 60_000);
    limiter.sweep();
    expect((limiter as unknown as { failures: Map<string, number[]> }).failures.size).toBe(0);
  });
});
