// The one clean-up of the store (src/oauth/rate-limits/purge.ts): what it deletes and keeps, its schedule, and
// that the service (src/service.ts) runs it without any request.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { manualClock } from "../../src/clock.ts";
import { memoryLogger, silentLogger } from "../../src/log.ts";
import { LIMIT_NAMES, LIMITS } from "../../src/oauth/rate-limits/table.ts";
import { purgeExpired, startPurgeSchedule } from "../../src/oauth/rate-limits/purge.ts";
import { storeLimiters } from "../../src/oauth/rate-limits/rate-limit.ts";
import { startService } from "../../src/service.ts";
import { DB_FILE } from "../../src/store/data-dir.ts";
import { memoryStore, openStore, type Store } from "../../src/store/store.ts";
import { testConfig } from "../support/app.ts";
import { freePort } from "../support/ports.ts";
import { countRows } from "../support/stores.ts";

const PENDING = { redirectUri: "http://localhost:6274/cb", codeChallenge: "c".repeat(43), state: "s", resource: null };
const TTL = 10 * 60_000;

/** One pending request and one event in every limit's bucket, all taken now. */
async function fill(store: Store): Promise<void> {
  await store.pending.create(PENDING, TTL);
  const limiters = storeLimiters(store.limits);
  for (const name of LIMIT_NAMES) await limiters[name].reserve(["ip:192.0.2.1"]);
}

const sizes = (store: Store) => Promise.all(LIMIT_NAMES.map((name) => store.limits.size(name)));

describe("purgeExpired", () => {
  test("deletes expired rows and each limit's events once they left its own window, nothing earlier", async () => {
    const clock = manualClock();
    const store = memoryStore(new Uint8Array(32).fill(3), clock);
    await fill(store);
    await purgeExpired(store);
    expect(await countRows(store.db, "pending_requests")).toBe(1);
    expect(await sizes(store)).toEqual(LIMIT_NAMES.map(() => 1));

    // Window by window, shortest first: only the buckets whose window has passed are emptied.
    const windows = [...new Set(LIMIT_NAMES.map((n) => LIMITS[n].windowMs))].sort((a, b) => a - b);
    for (const w of windows) {
      clock.set(Date.UTC(2026, 0, 1) + w);
      await purgeExpired(store);
      expect(await sizes(store)).toEqual(LIMIT_NAMES.map((n) => (LIMITS[n].windowMs <= w ? 0 : 1)));
      expect(await countRows(store.db, "pending_requests")).toBe(w >= TTL ? 0 : 1);
    }
  });
});

describe("startPurgeSchedule", () => {
  test("runs once before it returns, then on its timer; a failed run is logged and the next one runs", async () => {
    const log = memoryLogger();
    let runs = 0;
    let third!: () => void;
    const thirdRun = new Promise<void>((resolve) => { third = resolve; });
    const stop = await startPurgeSchedule(async () => {
      runs++;
      if (runs === 2) throw new Error("store unreachable");
      if (runs === 3) third();
    }, log, 1);
    expect(runs).toBe(1);
    await thirdRun;
    await stop();
    expect(log.lines.join("\n")).toContain("store unreachable");
  });
});

describe("the service", () => {
  test("purges the store on its own schedule, with no request", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailbox-mcp-purge-"));
    const port = await freePort();
    const config = testConfig({ dataDir: dir, port, baseUrl: `http://localhost:${port}` });
    const clock = manualClock();
    const target = { databaseUrl: null, sqlitePath: join(dir, DB_FILE), masterKey: config.secretKey, clock };
    try {
      const before = await openStore(target);
      await fill(before);
      await before.close();
      clock.advance(Math.max(TTL, ...LIMIT_NAMES.map((n) => LIMITS[n].windowMs)));
      const service = await startService(config, silentLogger, clock);
      const after = await openStore(target);
      try {
        expect(await countRows(after.db, "pending_requests")).toBe(0);
        expect(await countRows(after.db, "limit_events")).toBe(0);
      } finally {
        await after.close();
        await service.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
