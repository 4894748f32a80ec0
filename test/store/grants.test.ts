import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { manualClock } from "../../src/clock.ts";
import { Database } from "bun:sqlite";
import { migrate, openDatabase } from "../../src/store/db.ts";
import { migrations } from "../../src/store/migrations.ts";
import { hashSecret } from "../../src/store/crypto.ts";
import { GrantStore } from "../../src/store/grants.ts";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const master = new Uint8Array(32).fill(3);
const creds = new TextEncoder().encode(JSON.stringify({ password: "p@ss-UNIQUE-8842" }));
const CODE = "C".repeat(24) + "odeUnique0123456789abcdef";
const TOKEN = "ab".repeat(32);

function setup(path = ":memory:") {
  const clock = manualClock();
  const db = openDatabase(path);
  return { clock, db, store: new GrantStore(db, master, clock) };
}

async function issue(store: GrantStore) {
  const { requestId } = store.createPending(
    { redirectUri: "http://localhost:6274/oauth/callback", codeChallenge: "x".repeat(43), state: "s", resource: null },
    10 * MIN,
  );
  const pending = store.getPending(requestId)!;
  await store.issueCode(CODE, pending, creds, 5 * MIN);
  return { requestId };
}

describe("GrantStore", () => {
  test("schema: migrations set user_version and tables are STRICT", () => {
    const { db } = setup();
    expect(db.query<{ user_version: number }, []>("PRAGMA user_version").get()!.user_version).toBe(migrations.length);
    // sqlite_sequence (SQLite's own AUTOINCREMENT bookkeeping) is not ours to declare.
    const sql = db.query<{ name: string; sql: string }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all();
    expect(sql.map((t) => t.name)).toEqual(expect.arrayContaining(["pending_requests", "grants", "codes", "tokens", "clients", "revocations", "activity", "mcp_sessions"]));
    expect(sql.length).toBe(8);
    for (const { sql: s } of sql) expect(s).toContain("STRICT");
  });

  test("a version-1 store upgrades: its pending requests stay usable, without a client key", () => {
    const db = new Database(":memory:", { strict: true });
    db.exec(migrations[0]!);
    db.exec("PRAGMA user_version = 1");
    db.query("INSERT INTO pending_requests VALUES (?, ?, 'r', 'c', 's', NULL, ?)").run(hashSecret("old"), hashSecret("csrf"), Date.now() + MIN);
    migrate(db);
    const store = new GrantStore(db, master, manualClock());
    expect(store.getPending("old")).not.toBeNull();
    expect(store.topPendingHolder()).toEqual({ clientKey: null, count: 1 });
  });

  test("pending requests per client: counted, the biggest holder found, its oldest dropped", () => {
    const { store, clock } = setup();
    const p = { redirectUri: "r", codeChallenge: "c", state: "s", resource: null };
    store.createPending(p, 10 * MIN, "ip:a");
    clock.advance(MIN);
    store.createPending(p, 10 * MIN, "ip:a");
    store.createPending(p, 10 * MIN, "ip:b");
    expect(store.pendingHeldBy("ip:a")).toEqual({ count: 2, firstExpiry: clock() - MIN + 10 * MIN });
    expect(store.pendingHeldBy("ip:c")).toEqual({ count: 0, firstExpiry: null });
    expect(store.topPendingHolder()).toEqual({ clientKey: "ip:a", count: 2 });
    store.dropOldestPending("ip:a");
    expect(store.pendingHeldBy("ip:a")).toEqual({ count: 1, firstExpiry: clock() + 10 * MIN });
    clock.advance(10 * MIN);
    expect(store.pendingHeldBy("ip:b").count).toBe(0); // expired rows do not count
  });

  test("pending requests expire after their TTL and are consumed by a code", async () => {
    const { store, clock } = setup();
    const { requestId, csrfToken } = store.createPending(
      { redirectUri: "r", codeChallenge: "c", state: "s", resource: null }, 10 * MIN);
    const p = store.getPending(requestId)!;
    expect(store.csrfMatches(p, csrfToken)).toBe(true);
    expect(store.csrfMatches(p, csrfToken + "x")).toBe(false);
    clock.advance(10 * MIN);
    expect(store.getPending(requestId)).toBeNull();
    const again = await issue(store);
    expect(store.getPending(again.requestId)).toBeNull();
  });

  test("code → token: credentials open with the token, not with the code afterwards", async () => {
    const { store } = setup();
    await issue(store);
    const rec = store.findCode(CODE)!;
    expect(rec.usedAt).toBeNull();
    const tok = await store.redeemCode(CODE, rec, TOKEN, "email:read email:write", 30 * DAY);
    expect(tok?.scope).toBe("email:read email:write");
    expect(new TextDecoder().decode((await store.openCredentials(TOKEN))!)).toContain("p@ss-UNIQUE-8842");
    expect(store.findCode(CODE)!.usedAt).not.toBeNull();
    expect(await store.redeemCode(CODE, store.findCode(CODE)!, "cd".repeat(32), "s", DAY)).toBeNull();
  });

  test("a replayed code revokes the token issued from it", async () => {
    const { store } = setup();
    await issue(store);
    await store.redeemCode(CODE, store.findCode(CODE)!, TOKEN, "s", 30 * DAY);
    expect(store.revokeFromReplayedCode(store.findCode(CODE)!)).toBe(hashSecret(TOKEN));
    expect(store.findToken(TOKEN)).toBeNull();
    expect(await store.openCredentials(TOKEN)).toBeNull();
  });

  test("a replay after the code's 5 minutes (and a purge) still revokes the token", async () => {
    const { store, clock } = setup();
    await issue(store);
    await store.redeemCode(CODE, store.findCode(CODE)!, TOKEN, "s", 30 * DAY);
    clock.advance(60 * MIN);
    store.purgeExpired();
    const record = store.findCode(CODE);
    expect(record?.usedAt).not.toBeNull();
    expect(store.revokeFromReplayedCode(record!)).toBe(hashSecret(TOKEN));
    expect(store.findToken(TOKEN)).toBeNull();
  });

  test("a used code row goes once its token is gone", async () => {
    const { store, clock, db } = setup();
    await issue(store);
    await store.redeemCode(CODE, store.findCode(CODE)!, TOKEN, "s", 30 * DAY);
    clock.advance(30 * DAY);
    store.purgeExpired();
    expect(store.findCode(CODE)).toBeNull();
    expect(db.query("SELECT * FROM grants").all()).toHaveLength(0);
  });

  test("tokens expire after 30 days; revoke destroys the credentials", async () => {
    const { store, clock, db } = setup();
    await issue(store);
    await store.redeemCode(CODE, store.findCode(CODE)!, TOKEN, "s", 30 * DAY);
    clock.advance(30 * DAY - 1);
    expect(store.findToken(TOKEN)).not.toBeNull();
    expect(store.revokeToken(TOKEN)).toBe(hashSecret(TOKEN));
    expect(store.revokeToken(TOKEN)).toBeNull();
    expect(store.findToken(TOKEN)).toBeNull();
    expect(db.query("SELECT * FROM grants").all()).toHaveLength(0);
    expect(store.revokeToken("ff".repeat(32))).toBeNull();
  });

  test("expiry by clock and purge removes expired rows and orphaned grants", async () => {
    const { store, clock, db } = setup();
    await issue(store);
    clock.advance(5 * MIN);
    store.purgeExpired();
    expect(store.findCode(CODE)).toBeNull();
    expect(db.query("SELECT * FROM grants").all()).toHaveLength(0);
  });

  test("the database file never holds the password, the code or the token in clear", async () => {
    const dir = mkdtempSync(join(tmpdir(), "grants-"));
    const { store, db } = setup(join(dir, "db.sqlite"));
    await issue(store);
    await store.redeemCode(CODE, store.findCode(CODE)!, TOKEN, "s", 30 * DAY);
    db.exec("PRAGMA wal_checkpoint(FULL)");
    for (const f of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, f)).toString("latin1");
      for (const secret of ["p@ss-UNIQUE-8842", CODE, TOKEN]) expect(bytes.includes(secret)).toBe(false);
    }
    db.close();
  });
});
