// One clean-up for everything in the store that has run out (docs/design.md §4 "Expired rows are
// purged every minute"): pending authorizations, codes, tokens, registrations (Store.purgeExpired)
// and every limit's events once they left its window (limits.ts). No answer depends on it, since
// every lookup already ignores what has expired; it only keeps the tables small. So it runs on one
// schedule owned by the running service (src/service.ts startTimers), on a timer rather than on the requests:
// once a minute per instance, as the per-request purges were, and an idle server clears its
// tables too.
import type { Logger } from "../../log.ts";
import type { Store } from "../../store/store.ts";
import { LIMIT_NAMES } from "./table.ts";
import { StoreLimiter } from "./rate-limit.ts";

export const PURGE_EVERY_MS = 60_000;

/** Deletes the expired rows and each limit's events that left its window, as of the store's clock. */
export async function purgeExpired(store: Pick<Store, "purgeExpired" | "limits">): Promise<void> {
  await store.purgeExpired();
  for (const name of LIMIT_NAMES) await new StoreLimiter(store.limits, name).sweep();
}

/**
 * Runs `purge` once now, then every `everyMs` until the returned stop(), which waits for a run in
 * progress. A run still going when the next is due is not doubled; a failure is logged and the next
 * run tries again.
 */
export async function startPurgeSchedule(purge: () => Promise<void>, log: Logger, everyMs = PURGE_EVERY_MS): Promise<() => Promise<void>> {
  let running: Promise<void> | null = null;
  const run = (): Promise<void> => {
    running ??= purge()
      .catch((err: unknown) => log.error("purge failed", { error: (err as Error).message }))
      .finally(() => { running = null; });
    return running;
  };
  await run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
