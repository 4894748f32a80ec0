// The poller turns new rows of the revocation signal into in-process revocation events, once each,
// starting from the newest row at start-up, in batches, and survives a failing poll.
import { describe, expect, test } from "bun:test";
import { memoryLogger } from "../../src/log.ts";
import { LastUsed } from "../../src/oauth/lifecycle/last-used.ts";
import { startRevocationPoller, type RevocationSource } from "../../src/oauth/lifecycle/revocation-poller.ts";
import { TokenEvents } from "../../src/oauth/lifecycle/token-events.ts";
import { manualClock } from "../../src/clock.ts";
import { memoryStore, openStore } from "../../src/store/store.ts";
import { freshDatabaseUrl } from "../support/stores.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { until } from "../support/until.ts";

const KEY = new Uint8Array(32).fill(9);
const ACCOUNT = testAccount({ email: "a@example.test", user: "a", pass: "p" } as never, { host: "imap.example.test", port: 993 });

function source(rows: string[] = []) {
  const src = {
    rows: rows.map((tokenId, i) => ({ seq: i + 1, tokenId })),
    failNext: false,
    last: () => src.rows.at(-1)?.seq ?? 0,
    latest: async () => src.last(),
    async after(seq: number, limit = 500) {
      if (src.failNext) { src.failNext = false; throw new Error("database is locked"); }
      return src.rows.filter((r) => r.seq > seq).slice(0, limit);
    },
    add(tokenId: string) { src.rows.push({ seq: src.last() + 1, tokenId }); },
  };
  return src satisfies RevocationSource & Record<string, unknown>;
}

function heard(events: TokenEvents): string[] {
  const out: string[] = [];
  events.onRevoked((id) => void out.push(id));
  return out;
}

describe("revocation poller", () => {
  test("fires each revocation made after start once; earlier ones are not replayed", async () => {
    const src = source(["before-start"]);
    const events = new TokenEvents();
    const got = heard(events);
    const poller = await startRevocationPoller(src, events, memoryLogger(), 60_000);
    await poller.poll();
    expect(got).toEqual([]);
    src.add("t1");
    src.add("t2");
    await poller.poll();
    await poller.poll();
    expect(got).toEqual(["t1", "t2"]);
    await poller.stop();
  });

  test("reads past a full batch in one poll", async () => {
    const src = source();
    const events = new TokenEvents();
    const got = heard(events);
    const poller = await startRevocationPoller(src, events, memoryLogger(), 60_000);
    for (let i = 0; i < 1203; i++) src.add(`t${i}`);
    await poller.poll();
    expect(got.length).toBe(1203);
    await poller.stop();
  });

  test("polls on its own every interval, and a failed poll is logged and retried", async () => {
    const src = source();
    const events = new TokenEvents();
    const got = heard(events);
    const log = memoryLogger();
    src.failNext = true;
    const poller = await startRevocationPoller(src, events, log, 5);
    src.add("t1");
    await until(() => got.length > 0, { what: "the poller to deliver t1 after its failed poll" });
    expect(got).toEqual(["t1"]);
    expect(log.lines.some((l) => l.includes("revocation poll failed") && l.includes("database is locked"))).toBe(true);
    await poller.stop();
  });

  test("stop() waits for a read under way, which the service would otherwise run on a closed store", async () => {
    const src = source();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let reading = false;
    const slow: RevocationSource = {
      latest: src.latest,
      async after(seq, limit) {
        reading = true;
        await held;
        return src.after(seq, limit);
      },
    };
    const events = new TokenEvents();
    const order: string[] = [];
    events.onRevoked((id) => void order.push(`revoked ${id}`));
    const poller = await startRevocationPoller(slow, events, memoryLogger(), 60_000);
    src.add("t1");
    const polled = poller.poll();
    await until(() => reading, { what: "the read to start" });
    const stopped = poller.stop().then(() => void order.push("stopped"));
    await new Promise((r) => setImmediate(r)); // stop() has had its turn to resolve
    release();
    await Promise.all([polled, stopped]);
    expect(order).toEqual(["revoked t1", "stopped"]);
  });
});

describe("revocation poller on a shared Postgres: pushed by LISTEN/NOTIFY", () => {
  test("a revocation on another instance arrives without a poll; SQLite has no push and polls", async () => {
    const url = await freshDatabaseUrl("push");
    const open = () => openStore({ databaseUrl: url, sqlitePath: ":memory:", masterKey: KEY, clock: Date.now });
    const [here, there] = [await open(), await open()];
    try {
      const events = new TokenEvents();
      const got = heard(events);
      // Neither interval comes round during the test: only a notification can deliver it.
      const poller = await startRevocationPoller(here.revocations, events, memoryLogger(), 600_000, 600_000);
      expect(poller.pushed).toBe(true);
      const { token, tokenId } = await issueTestGrant(there, ACCOUNT);
      await there.grants.revokeToken(token);
      await until(() => got.length > 0, { what: "the revocation to arrive by NOTIFY" });
      expect(got).toEqual([tokenId]);
      await poller.stop();
    } finally {
      await Promise.all([here.close(), there.close()]);
    }
    const sqlite = memoryStore(KEY, Date.now);
    const poller = await startRevocationPoller(sqlite.revocations, new TokenEvents(), memoryLogger(), 600_000);
    expect(poller.pushed).toBe(false);
    await poller.stop();
    await sqlite.close();
  });
});

describe("last used", () => {
  test("at most one write per grant per minute", () => {
    const clock = manualClock();
    const writes: string[] = [];
    const lastUsed = new LastUsed(clock, async (id) => void writes.push(id), memoryLogger());
    lastUsed.seen("g1");
    lastUsed.seen("g1");
    lastUsed.seen("g2");
    clock.advance(59_999);
    lastUsed.seen("g1");
    clock.advance(1);
    lastUsed.seen("g1");
    expect(writes).toEqual(["g1", "g2", "g1"]);
  });

  test("a failing write never fails the request", async () => {
    const log = memoryLogger();
    const lastUsed = new LastUsed(manualClock(), async () => { throw new Error("database is locked"); }, log);
    expect(() => lastUsed.seen("g1")).not.toThrow();
    await until(() => log.lines.length > 0, { what: "the failed write to be logged" }); // the write is not awaited: its failure is logged once it settles
    expect(log.lines[0]).toContain("could not record last use");
  });
});
