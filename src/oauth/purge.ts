// Opportunistic clean-up (docs/design.md §4 "Expired rows are purged"): at most once a minute, on the OAuth
// requests themselves, so no timer is needed and tests drive it with the manual clock.
import type { Clock } from "../clock.ts";

export function throttled(clock: Clock, everyMs: number, task: () => Promise<void>): () => Promise<void> {
  let last = -Infinity;
  return async () => {
    const now = clock();
    if (now - last < everyMs) return;
    last = now;
    await task();
  };
}
