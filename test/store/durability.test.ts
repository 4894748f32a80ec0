// Transactions that need not wait for the disk (src/store/db.ts TxOptions): SQLite commits them with
// `synchronous = NORMAL` and sets the connection back after, Postgres with `synchronous_commit = off`
// for that transaction alone. The send gate's claim stays durable (synced before the message goes to
// SMTP); only its outcome is written so (docs/performance.md "send_email").
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { manualClock } from "../../src/clock.ts";
import { openSqlite, type Db, type TxOptions } from "../../src/store/db.ts";
import { randomBytes } from "node:crypto";
import { storesOver } from "../../src/store/store.ts";
import { BACKENDS, closeStoresAfterEach } from "../support/stores.ts";

closeStoresAfterEach();

const sqliteFile = () => join(mkdtempSync(join(tmpdir(), "durability-")), "db.sqlite");

/** SQLite's synchronous as a number: 1 NORMAL, 2 FULL. */
const sync = async (q: unknown) => Number((await (q as Db["q"])<{ synchronous: unknown }>`PRAGMA synchronous`)[0]!.synchronous);

describe("a transaction that need not wait for the disk", () => {
  test("SQLite: committed with synchronous = NORMAL, the connection FULL again after it (also when it fails)", async () => {
    const db = await openSqlite(sqliteFile());
    try {
      expect(await sync(db.q.bind(db))).toBe(2);
      expect(await db.tx((tx) => sync(tx))).toBe(2);
      expect(await db.tx((tx) => sync(tx), { durable: false })).toBe(1);
      expect(await sync(db.q.bind(db))).toBe(2);
      await expect(db.tx(async () => { throw new Error("boom"); }, { durable: false })).rejects.toThrow("boom");
      expect(await sync(db.q.bind(db))).toBe(2);
      expect(await db.tx((tx) => sync(tx))).toBe(2);
    } finally {
      await db.close();
    }
  });

  test("SQLite: a connection opened without a sync per commit stays so", async () => {
    const db = await openSqlite(sqliteFile(), { synchronous: "NORMAL" });
    try {
      expect(await db.tx((tx) => sync(tx), { durable: false })).toBe(1);
      expect(await db.tx((tx) => sync(tx))).toBe(1);
      expect(await sync(db.q.bind(db))).toBe(1);
    } finally {
      await db.close();
    }
  });

  test("Postgres: synchronous_commit is off for that transaction only", async () => {
    const db = await BACKENDS.find((b) => b.name === "postgres")!.open();
    const setting = (tx: Parameters<Parameters<Db["tx"]>[0]>[0]) =>
      (tx as unknown as Db["q"])<{ synchronous_commit: string }>`SHOW synchronous_commit`.then((r) => r[0]!.synchronous_commit);
    expect(await db.tx(setting, { durable: false })).toBe("off");
    expect(await db.tx(setting)).toBe("on");
    expect((await db.q<{ synchronous_commit: string }>`SHOW synchronous_commit`)[0]!.synchronous_commit).toBe("on");
  });
});

async function grantIn(s: ReturnType<typeof storesOver>): Promise<string> {
  const { requestId } = await s.pending.create({ redirectUri: "http://localhost:6274/oauth/callback", codeChallenge: "x".repeat(43), state: "s", resource: null }, 60_000);
  await s.grants.issueCode(randomBytes(24).toString("hex"), (await s.pending.get(requestId))!, new Uint8Array([1]), 60_000, null, {});
  const [row] = await s.db.q<{ id: string }>`SELECT id FROM grants ORDER BY created_at DESC LIMIT 1`;
  return row!.id;
}

for (const backend of BACKENDS) {
  test(`the send gate on ${backend.name}: the claim is committed durably, the outcome without waiting for the disk`, async () => {
    const db = await backend.open();
    const s = storesOver(db, new Uint8Array(32).fill(5), manualClock());
    const grant = await grantIn(s);
    const seen: Array<TxOptions | undefined> = [];
    const tx = db.tx.bind(db);
    db.tx = ((fn: Parameters<Db["tx"]>[0], options?: TxOptions) => (seen.push(options), tx(fn, options))) as Db["tx"];
    const windows = [{ bucket: "send-hour", w: { max: 10, windowMs: 3_600_000 } }];
    const taken = await s.sendClaims.take(grant, "d1", windows, { pending: { message_id: "<m@x>" } });
    expect(taken).toMatchObject({ claimed: true });
    expect(seen.map((o) => o?.durable ?? true)).toEqual([true]);
    await s.sendClaims.settle(grant, "d1", { status: "sent" }, ["bob@example.test"]);
    expect(seen.map((o) => o?.durable ?? true)).toEqual([true, false]);
    expect(await s.sendLedger.find(grant, "d1")).toMatchObject({ state: "done", outcome: { status: "sent" } });
    expect([...(await s.sendRecipients.known(grant, ["bob@example.test"]))]).toEqual(["bob@example.test"]);
  });
}
