// The failed-login limiter over the store's events (src/store/limits.ts): 5 per 15 minutes per key.
// Across instances: test/store/shared-state.test.ts and test/cluster/.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { connectKeys, StoreLimiter, type Slot } from "../../src/oauth/rate-limits/rate-limit.ts";
import { memoryStore } from "../../src/store/store.ts";

const login = (email: string, username = email, imapHost = "imap.x.test") => ({ email, username, imapHost });

function limiter() {
  const clock = manualClock();
  const store = memoryStore(new Uint8Array(32).fill(5), clock);
  return { clock, store, limiter: new StoreLimiter(store.limits, "connect-failures") };
}

/** A failed attempt: a slot taken and kept. */
async function fail(l: StoreLimiter, keys: string[]): Promise<void> {
  const slot = await l.reserve(keys);
  if (!("release" in slot)) throw new Error(`refused: retry after ${slot.retryAfter}`);
}

const retryAfter = async (l: StoreLimiter, keys: string[]) => {
  const slot = await l.reserve(keys);
  if ("retryAfter" in slot) return slot.retryAfter;
  await slot.release();
  return 0;
};

describe("failed-login limiter (5 per 15 minutes per key)", () => {
  test("blocks after the fifth failure until the oldest leaves the window", async () => {
    const { clock, limiter: l } = limiter();
    const keys = connectKeys("1.2.3.4", login("A@x.test"));
    for (let i = 0; i < 5; i++) {
      await fail(l, keys);
      clock.advance(60_000);
    }
    // 5 failures at t=0..4 min, now t=5 min: the first expires at t=15 min.
    expect(await retryAfter(l, keys)).toBe(10 * 60);
    clock.advance(10 * 60_000 - 1000);
    expect(await retryAfter(l, keys)).toBe(1);
    clock.advance(1000);
    expect(await retryAfter(l, keys)).toBe(0);
  });

  test("per IP and per mailbox: either key alone blocks", async () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 5; i++) await fail(l, connectKeys("9.9.9.9", login(`u${i}@x.test`)));
    expect(await retryAfter(l, connectKeys("9.9.9.9", login("new@x.test")))).toBeGreaterThan(0);
    expect(await retryAfter(l, connectKeys("8.8.8.8", login("new@x.test")))).toBe(0);
    for (let i = 0; i < 5; i++) await fail(l, connectKeys(`10.0.0.${i}`, login("Victim@X.test")));
    expect(await retryAfter(l, connectKeys("7.7.7.7", login("victim@x.test ")))).toBeGreaterThan(0);
  });

  test("sweep forgets events that left the window", async () => {
    const { clock, store, limiter: l } = limiter();
    await fail(l, ["k"]);
    clock.advance(15 * 60_000);
    await l.sweep();
    expect(await store.limits.size("connect-failures")).toBe(0);
  });

  test("changing the address field does not dodge the limit on the login actually tried", async () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 5; i++) await fail(l, connectKeys(`203.0.113.${i}`, login(`decoy${i}@x.test`, "Victim@Gmail.com", "imap.gmail.com")));
    expect(await retryAfter(l, connectKeys("198.51.100.1", login("other@x.test", "victim@gmail.com", "IMAP.gmail.com")))).toBeGreaterThan(0);
    expect(await retryAfter(l, connectKeys("198.51.100.1", login("other@x.test", "victim@gmail.com", "imap.other.test")))).toBe(0);
  });

  test("IPv6 clients are counted by /64", async () => {
    const { limiter: l } = limiter();
    for (let i = 1; i <= 5; i++) await fail(l, connectKeys(`2001:db8:1:2::${i}`, login(`u${i}@x.test`)));
    expect(await retryAfter(l, connectKeys("2001:0db8:0001:0002:ffff::9", login("fresh@x.test")))).toBeGreaterThan(0);
    expect(await retryAfter(l, connectKeys("2001:db8:1:3::1", login("fresh@x.test")))).toBe(0);
  });

  test("reserve: check and count in one step; a released slot is as if never taken", async () => {
    const { limiter: l } = limiter();
    const slots = await Promise.all(Array.from({ length: 5 }, () => l.reserve(["k"])));
    expect(slots.every((s) => "release" in s)).toBe(true);
    expect(await l.reserve(["k"])).toEqual({ retryAfter: 15 * 60 });
    await (slots[0] as Slot).release();
    await (slots[0] as Slot).release(); // twice is once
    const sixth = await l.reserve(["k"]);
    expect("release" in sixth).toBe(true);
    expect("retryAfter" in (await l.reserve(["k"]))).toBe(true);
  });

  test("reserve takes every key or none", async () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 5; i++) await fail(l, ["full"]);
    expect("retryAfter" in (await l.reserve(["free", "full"]))).toBe(true);
    for (let i = 0; i < 4; i++) await fail(l, ["free"]);
    expect(await retryAfter(l, ["free"])).toBe(0);
  });

  test("limits with equal keys but different buckets count apart", async () => {
    const { store, limiter: l } = limiter();
    for (let i = 0; i < 5; i++) await fail(l, ["ip:1"]);
    expect(await retryAfter(new StoreLimiter(store.limits, "authorize", { max: 30, windowMs: 60_000 }), ["ip:1"])).toBe(0);
  });
});
