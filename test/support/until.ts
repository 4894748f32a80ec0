// The one way a test waits for something to have happened (a call to arrive, a stream to end, a
// process to answer): poll a condition every few milliseconds, and on timeout fail saying what was
// awaited. Never a fixed sleep: on a loaded machine a sleep is too short (a flake), on an idle one
// it is too long (a slow suite). Time that must pass for an expiry is the injectable clock's job
// (src/clock.ts manualClock().advance), not a wait.

export interface UntilOptions {
  /** How long to keep trying; only reached when the test fails, so generous. Default 5 s. */
  timeoutMs?: number;
  /** What is awaited, for the timeout error: "the FETCH to reach the fake server". A function is asked at the timeout. */
  what?: string | (() => string);
  /** Between two checks; default 10 ms. */
  intervalMs?: number;
}

/**
 * Resolves as soon as `cond()` is true (checked at once, then every `intervalMs`); throws
 * "timed out after N ms waiting for WHAT" once `timeoutMs` has passed. An error thrown by `cond`
 * ends the wait with that error (e.g. "the process exited").
 */
export async function until(cond: () => boolean | Promise<boolean>, opts: UntilOptions = {}): Promise<void> {
  const { timeoutMs = 5_000, intervalMs = 10 } = opts;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (performance.now() >= deadline) {
      const what = typeof opts.what === "function" ? opts.what() : opts.what;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what ?? "a condition"}`);
    }
    await Bun.sleep(intervalMs);
  }
}
