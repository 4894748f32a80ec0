// What several instances rely on in the store, on both backends: rate-limit reservations that hold
// under concurrency (separate connections, as separate instances have), migrations by one instance
// at a time, and the master key check.
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { manualClock } from "../../src/clock.ts";
import { keyCheckValue } from "../../src/store/crypto.ts";
import { openPostgres, openSqlite, type Db } from "../../src/store/db.ts";
import { checkMasterKey } from "../../src/store/key-check.ts";
import { LimitStore } from "../../src/store/limits.ts";
import { migrate, SCHEMA_VERSION, SchemaVersionError, schemaVersion } from "../../src/store/schema.ts";
import { KeyMismatchError, openStore, SchemaMismatchError } from "../../src/store/store.ts";
import { BACKENDS, closeStoresAfterEach, freshDatabaseUrl, withInstances } from "../support/stores.ts";

const key = new Uint8Array(32).fill(1);
const W = { max: 5, windowMs: 15 * 60_000 };

closeStoresAfterEach();

for (const backend of BACKENDS) {
  describe(`shared state on ${backend.name}`, () => {
    test("12 reservations at once: exactly 5 taken; a release frees one; the window moves on", async () => {
      const clock = manualClock();
      const limits = new LimitStore(await backend.open(), key, clock);
      const all = await Promise.all(Array.from({ length: 12 }, () => limits.reserve("b", ["ip:1", "mailbox:a"], W)));
      const taken = all.filter((r) => "slot" in r);
      expect(taken).toHaveLength(5);
      expect(all.filter((r) => "waitMs" in r).every((r) => (r as { waitMs: number }).waitMs === W.windowMs)).toBe(true);
      await limits.release((taken[0] as { slot: string }).slot);
      expect("slot" in (await limits.reserve("b", ["ip:1"], W))).toBe(true);
      expect("waitMs" in (await limits.reserve("b", ["ip:2", "ip:1"], W))).toBe(true); // one full key refuses all
      expect("slot" in (await limits.reserve("b", ["ip:2"], W))).toBe(true); // ...and took nothing under the others
      expect("slot" in (await limits.reserve("other-bucket", ["ip:1"], W))).toBe(true);
      clock.advance(W.windowMs);
      expect("slot" in (await limits.reserve("b", ["ip:1"], W))).toBe(true);
      await limits.sweep("b", W.windowMs);
      expect(await limits.size("b")).toBe(1);
    });

    test("the wait is set by the max-th newest event of the fullest key, however many the window holds", async () => {
      const clock = manualClock();
      const limits = new LimitStore(await backend.open(), key, clock);
      const wide = { max: 3, windowMs: 60_000 };
      for (let i = 0; i < 40; i++) {
        await limits.reserve("many", [`k:${i % 2}`], { max: 1000, windowMs: 60_000 }); // 20 events per key, a second apart
        clock.advance(1000);
      }
      // k:1's newest three are at 39 s, 37 s and 35 s (now is 40 s): the third ages out at 95 s.
      expect(await limits.wait("many", ["k:1"], wide)).toBe(35_000 + 60_000 - 40_000);
      expect(await limits.wait("many", ["k:0"], wide)).toBe(34_000 + 60_000 - 40_000); // k:0's: 38, 36, 34 s
      expect(await limits.wait("many", ["k:0", "k:1"], wide)).toBe(35_000 + 60_000 - 40_000); // the longer of the two
      expect(await limits.wait("many", ["k:2"], wide)).toBe(0);
    });

    test("keys are stored as keyed hashes, never the address", async () => {
      const db = await backend.open();
      await new LimitStore(db, key, manualClock()).reserve("b", ["mailbox:victim@example.test", "ip:203.0.113.9"], W);
      const dump = JSON.stringify([...(await db.q`SELECT bucket, key, at, slot FROM limit_events`)]);
      expect(dump).not.toContain("victim");
      expect(dump).not.toContain("203.0.113");
    });

    test("the master key check: recorded once, then matched or not; never the key itself", async () => {
      const db = await backend.open();
      expect(await checkMasterKey(db, key)).toBe("recorded");
      expect(await checkMasterKey(db, key)).toBe("match");
      expect(await checkMasterKey(db, new Uint8Array(32).fill(2))).toBe("mismatch");
      const rows = await db.q<{ value: string }>`SELECT value FROM store_meta`;
      expect(rows[0]!.value).toBe(keyCheckValue(key));
      expect(rows[0]!.value).not.toContain(Buffer.from(key).toString("hex"));
    });

    test("a statement issued while a transaction is open is not swallowed by its rollback", async () => {
      const db = await backend.open();
      let opened!: () => void;
      const txOpen = new Promise<void>((r) => (opened = r));
      let issued!: () => void;
      const outsideIssued = new Promise<void>((r) => (issued = r));
      const tx = db.tx(async (t) => {
        await t`INSERT INTO store_meta (name, value) VALUES ('in-tx', '1')`;
        opened();
        await outsideIssued; // roll back only once the statement below is under way
        throw new Error("rolled back");
      }).catch((err: Error) => err.message);
      await txOpen;
      const outside = db.q`INSERT INTO store_meta (name, value) VALUES ('outside', '2')`.then(() => {});
      issued();
      await outside;
      expect(await tx).toBe("rolled back");
      expect([...(await db.q`SELECT name FROM store_meta`)]).toEqual([{ name: "outside" }]);
    });

    test("IN lists outside a transaction (Db.list), the same on both", async () => {
      const db = await backend.open();
      for (const name of ["a", "b", "c"]) await db.q`INSERT INTO store_meta (name, value) VALUES (${name}, 'v')`;
      const rows = await db.q<{ name: string }>`SELECT name FROM store_meta WHERE name IN ${db.list(["a", "c", "z"])} ORDER BY name`;
      expect(rows.map((r) => r.name)).toEqual(["a", "c"]);
    });

    test("a store newer than this build is refused", async () => {
      const db = await backend.create();
      await migrate(db);
      if (db.dialect === "sqlite") await db.q`PRAGMA user_version = 99`;
      else await db.q`UPDATE schema_version SET version = 99`;
      await expect(migrate(db)).rejects.toThrow(SchemaVersionError);
    });
  });
}

describe("the single executable's SQLite file", () => {
  test("a lost key file (another key) warns and becomes the store's key; the old grants stay unopenable", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "keycheck-")), "s.sqlite");
    const clock = manualClock();
    const first = await openStore({ databaseUrl: null, sqlitePath: path, masterKey: key, clock });
    await first.close();
    const warnings: string[] = [];
    const other = new Uint8Array(32).fill(2);
    const second = await openStore({ databaseUrl: null, sqlitePath: path, masterKey: other, clock, warn: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("clients must sign in again");
    expect(await checkMasterKey(second.db, other)).toBe("match");
    await second.close();
  });

  test("the owner's verbs (role tool) neither adopt another key nor migrate", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "keycheck-")), "s.sqlite");
    const clock = manualClock();
    const at = { databaseUrl: null, sqlitePath: path, clock, role: "tool" as const };
    await (await openStore({ databaseUrl: null, sqlitePath: path, masterKey: key, clock })).close();
    await expect(openStore({ ...at, masterKey: new Uint8Array(32).fill(2) })).rejects.toThrow(KeyMismatchError);
    const tool = await openStore({ ...at, masterKey: key }); // the key check is still the server's
    await tool.close();
    // A store one version behind (its server not yet upgraded): a newer CLI refuses, and leaves it as it is.
    const olderPath = join(mkdtempSync(join(tmpdir(), "older-")), "s.sqlite");
    const older = await openSqlite(olderPath);
    await migrate(older, SCHEMA_VERSION - 1);
    await expect(openStore({ ...at, sqlitePath: olderPath, masterKey: key })).rejects.toThrow(SchemaMismatchError);
    expect(await schemaVersion(older)).toBe(SCHEMA_VERSION - 1);
    await older.close();
  });
});

describe("several instances on one Postgres", () => {
  test("starting together, they migrate once: one finds version 0, the others the current one", async () => {
    const url = await freshDatabaseUrl("race");
    const dbs: Db[] = await Promise.all([1, 2, 3].map(() => openPostgres(url)));
    try {
      const found = await Promise.all(dbs.map((db) => migrate(db)));
      expect(found.sort()).toEqual([0, SCHEMA_VERSION, SCHEMA_VERSION]);
      expect(await schemaVersion(dbs[0]!)).toBe(SCHEMA_VERSION);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });

  test("reservations from separate instances (separate pools) share one limit", async () => {
    await withInstances("limits", async (dbs) => {
      const clock = manualClock();
      const stores = dbs.map((db) => new LimitStore(db, key, clock));
      const all = await Promise.all(Array.from({ length: 12 }, (_, i) => stores[i % 3]!.reserve("connect", ["ip:1"], W)));
      expect(all.filter((r) => "slot" in r)).toHaveLength(5);
    });
  });

  test("an instance with another master key refuses to start", async () => {
    const url = await freshDatabaseUrl("keys");
    const clock = manualClock();
    const first = await openStore({ databaseUrl: url, sqlitePath: "unused", masterKey: key, clock });
    await first.close();
    const again = await openStore({ databaseUrl: url, sqlitePath: "unused", masterKey: key, clock });
    await again.close();
    await expect(openStore({ databaseUrl: url, sqlitePath: "unused", masterKey: new Uint8Array(32).fill(2), clock }))
      .rejects.toThrow(KeyMismatchError);
  });
});
