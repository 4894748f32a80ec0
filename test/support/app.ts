// The service's own graph (src/composition.ts buildService) on a test store and a manual clock, for
// app.handle() tests and test servers (src/store/store.ts memoryStore: usable at once, its migration
// runs first). Nothing is wired here: a test changes a part through ServiceOverrides, never by
// building one of its own. No timer runs (src/service.ts startTimers starts them where a test needs them).
import { manualClock, type Clock } from "../../src/clock.ts";
import { buildService, type ServiceOverrides } from "../../src/composition.ts";
import type { Config } from "../../src/config.ts";
import { memoryLogger } from "../../src/log.ts";
import { memoryStore, type Store } from "../../src/store/store.ts";

export { TEST_CLIENT_ID, TEST_CLIENT_SECRET, testConfig } from "./config.ts";
import { testConfig } from "./config.ts";

/** Builds the stores over the test's key and clock; `storesOver(db, …)` puts them on a file or on Postgres. */
export type StoreFactory = (masterKey: Uint8Array, clock: Clock) => Store;

/**
 * What a test may change: the service's overrides, and the store to build on (by default a fresh
 * in-memory one). The clock is always a manual one and the log a memory one: tests move and read them.
 */
export interface TestOverrides extends Omit<ServiceOverrides, "clock" | "log"> {
  makeStore?: StoreFactory;
}

/**
 * The service's graph over a test configuration, a manual clock and a memory log. Some parts are
 * also returned by name (db, grants, imap, smtp, sessions, calls, sendBudget…) for tests that look inside.
 */
export function testDeps(config: Partial<Config> = {}, { makeStore = memoryStore, ...overrides }: TestOverrides = {}) {
  const settings = testConfig(config);
  const clock = manualClock(Date.now());
  const log = memoryLogger();
  const service = buildService(settings, makeStore(settings.secretKey, clock), { ...overrides, clock, log });
  const { db, grants, pending, activity } = service.store;
  const { imap, smtp } = service.runtime.mail;
  const { sessions, calls, sendBudget } = service.runtime;
  // `clock` and `log` with the types the tests use (a ManualClock's set/advance, a MemoryLogger's lines).
  return { ...service, clock, log, db, grants, pending, activity, imap, smtp, sessions, calls, sendBudget };
}

/** testDeps under its older name, for the tests that want the app first. */
export const testApp = testDeps;
