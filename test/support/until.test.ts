// until(): resolves as soon as the condition holds, fails naming what it waited for, and stops at
// an error thrown by the condition.
import { describe, expect, test } from "bun:test";
import { until } from "./until.ts";

describe("until", () => {
  test("resolves once the condition holds, sync or async", async () => {
    let n = 0;
    await until(() => ++n >= 3, { intervalMs: 1 });
    expect(n).toBe(3);
    await until(async () => true);
  });

  test("times out with an error naming what it waited for", async () => {
    const t0 = performance.now();
    await expect(until(() => false, { timeoutMs: 30, what: "the moon" })).rejects.toThrow("timed out after 30 ms waiting for the moon");
    expect(performance.now() - t0).toBeGreaterThanOrEqual(29);
    await expect(until(() => false, { timeoutMs: 1, what: () => "state: stuck" })).rejects.toThrow("waiting for state: stuck");
  });

  test("an error thrown by the condition ends the wait with it", async () => {
    await expect(until(() => { throw new Error("the process exited"); })).rejects.toThrow("the process exited");
  });
});
