// Rate-limit events numbered within their key (schema 12, src/store/limits.ts): a window's check reads
// the event numbered newest − max + 1, so the numbers must stay dense through releases, sweeps, a
// migration of events kept before, and instances taking and giving back at once. Each is held to a
// plain model of the sliding window: every event of a key inside it, counted.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import type { Db } from "../../src/store/db.ts";
import { LimitStore, type Window } from "../../src/store/limits.ts";
import { migrate } from "../../src/store/schema.ts";
import { forAll, PROPERTY_TIMEOUT, type Rng } from "../support/seeded.ts";
import { BACKENDS, closeStoresAfterEach, withInstances } from "../support/stores.ts";

const key = new Uint8Array(32).fill(7);
const W: Window = { max: 3, windowMs: 10_000 };
const KEYS = ["a", "b", "c"];

closeStoresAfterEach();

type Op = { reserve: string[] } | { release: number } | { advance: number } | { sweep: true };

/** The sliding window as the limit means it, over every event each key holds. */
class Model {
  private events = new Map<string, Array<{ at: number; slot: number }>>();
  private slots = 0;
  reserve(keys: string[], now: number): { slot: number } | { waitMs: number } {
    let waitMs = 0;
    for (const k of new Set(keys)) {
      const inWindow = (this.events.get(k) ?? []).filter((e) => e.at > now - W.windowMs).sort((x, y) => y.at - x.at);
      if (inWindow.length >= W.max) waitMs = Math.max(waitMs, inWindow[W.max - 1]!.at + W.windowMs - now);
    }
    if (waitMs > 0) return { waitMs };
    const slot = this.slots++;
    for (const k of new Set(keys)) this.events.set(k, [...(this.events.get(k) ?? []), { at: now, slot }]);
    return { slot };
  }
  release(slot: number): void {
    for (const [k, list] of this.events) this.events.set(k, list.filter((e) => e.slot !== slot));
  }
  sweep(now: number): void {
    for (const [k, list] of this.events) this.events.set(k, list.filter((e) => e.at > now - W.windowMs));
  }
}

function ops(rng: Rng): Op[] {
  return rng.times(rng.between(10, 60), (): Op => {
    const r = rng.next();
    if (r < 0.5) return { reserve: rng.times(rng.between(1, 2), () => rng.pick(KEYS)) };
    if (r < 0.7) return { release: rng.int(20) };
    if (r < 0.95) return { advance: rng.pick([0, 500, 1500, 4000]) };
    return { sweep: true };
  });
}

/** Plays `list` on the store and on the model; null when every answer agrees and the numbers are dense. */
async function play(db: Db, list: Op[]): Promise<string | null> {
  await db.q`DELETE FROM limit_events`;
  const clock = manualClock();
  const limits = new LimitStore(db, key, clock);
  const model = new Model();
  const slots: string[] = [];
  for (const [i, op] of list.entries()) {
    if ("reserve" in op) {
      const got = await limits.reserve("b", op.reserve, W);
      const want = model.reserve(op.reserve, clock());
      if ("slot" in got) slots.push(got.slot);
      if ("waitMs" in got !== "waitMs" in want || ("waitMs" in got && got.waitMs !== (want as { waitMs: number }).waitMs)) {
        return `op ${i}: the store answered ${JSON.stringify(got)}, the model ${JSON.stringify(want)}`;
      }
    } else if ("release" in op) {
      if (op.release < slots.length) {
        await limits.release(slots[op.release]!);
        model.release(op.release);
      }
    } else if ("advance" in op) clock.advance(op.advance);
    else {
      await limits.sweep("b", W.windowMs);
      model.sweep(clock());
    }
  }
  return denseNumbers(db);
}

/** null when each key's events are numbered 1…n. */
async function denseNumbers(db: Db): Promise<string | null> {
  const rows = await db.q<{ key: string; seq: unknown }>`SELECT key, seq FROM limit_events ORDER BY key, seq`;
  const byKey = new Map<string, number[]>();
  for (const r of rows) byKey.set(r.key, [...(byKey.get(r.key) ?? []), Number(r.seq)]);
  for (const [k, seqs] of byKey) {
    const base = seqs[0]!;
    // A sweep takes a key's oldest events: its numbers then start above 1, still without a gap.
    if (seqs.some((s, i) => s !== base + i)) return `key ${k.slice(0, 8)}… is numbered ${seqs.join(", ")}`;
  }
  return null;
}

for (const backend of BACKENDS) {
  describe(`rate-limit events numbered per key on ${backend.name}`, () => {
    test("reservations, releases (oldest, middle, newest), sweeps and time: the same answers as the sliding window", async () => {
      const db = await backend.open();
      await forAll({ name: "limit numbering", count: backend.name === "sqlite" ? 150 : 40, generate: ops, check: (list) => play(db, list) });
    }, PROPERTY_TIMEOUT);

    test("events kept before schema 12 are numbered by time per key, and hold the limit as before", async () => {
      const db = await backend.create();
      await migrate(db, 11);
      // Inserted out of time order, two keys interleaved, two at the same moment.
      for (const [k, at, slot] of [["k1", 3000, "s1"], ["k1", 1000, "s2"], ["k2", 2000, "s3"], ["k1", 2000, "s4"], ["k1", 2000, "s5"]] as const) {
        await db.q`INSERT INTO limit_events (bucket, key, at, slot) VALUES ('old', ${k}, ${at}, ${slot})`;
      }
      await migrate(db);
      const rows = await db.q<{ key: string; at: unknown; seq: unknown }>`SELECT key, at, seq FROM limit_events ORDER BY key, seq`;
      expect(rows.map((r) => [r.key, Number(r.at), Number(r.seq)])).toEqual([
        ["k1", 1000, 1], ["k1", 2000, 2], ["k1", 2000, 3], ["k1", 3000, 4], ["k2", 2000, 1],
      ]);
      await db.q`DELETE FROM limit_events`;
      const clock = manualClock(0);
      const limits = new LimitStore(db, key, clock);
      for (let i = 0; i < 3; i++) expect("slot" in (await limits.reserve("b", ["x"], W))).toBe(true);
      expect(await limits.wait("b", ["x"], W)).toBe(W.windowMs);
    });

    test("during a rolling upgrade, events an older build inserts without a number still count", async () => {
      const db = await backend.open();
      const clock = manualClock(0);
      const limits = new LimitStore(db, key, clock);
      expect("slot" in (await limits.reserve("b", ["x"], W))).toBe(true); // numbered 1, at 0 s
      const [{ key: hashed }] = [...(await db.q<{ key: string }>`SELECT key FROM limit_events`)] as [{ key: string }];
      for (const at of [1000, 2000]) { // what a build before schema 12 inserts: no seq (0)
        await db.q`INSERT INTO limit_events (bucket, key, at, slot) VALUES ('b', ${hashed}, ${at}, ${`old-${at}`})`;
      }
      clock.set(3000);
      // Three events in the window: the fourth waits until the first (0 s) leaves it.
      expect(await limits.reserve("b", ["x"], W)).toEqual({ waitMs: W.windowMs - 3000 });
      clock.set(W.windowMs + 500);
      expect("slot" in (await limits.reserve("b", ["x"], W))).toBe(true);
      expect(await limits.reserve("b", ["x"], W)).toEqual({ waitMs: 1000 + W.windowMs - (W.windowMs + 500) });
    });
  });
}

describe("several instances on one Postgres", () => {
  test("taking and giving back events under one key at once from three pools keeps its numbers dense", async () => {
    await withInstances("limit-order", async (dbs) => {
      const clock = manualClock();
      const stores = dbs.map((db) => new LimitStore(db, key, clock));
      const wide = { max: 1000, windowMs: 60_000 };
      const first = await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 3]!.reserve("race", ["k"], wide)));
      const slots = first.map((r) => (r as { slot: string }).slot);
      // Every other event given back while as many more are taken, spread over the three pools.
      await Promise.all([
        ...slots.filter((_, i) => i % 2 === 0).map((slot, i) => stores[i % 3]!.release(slot)),
        ...Array.from({ length: 15 }, (_, i) => stores[(i + 1) % 3]!.reserve("race", ["k"], wide)),
      ]);
      expect(await denseNumbers(dbs[0]!)).toBeNull();
      const [row] = await dbs[0]!.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM limit_events`;
      expect(Number(row!.n)).toBe(30);
    });
  });
});
