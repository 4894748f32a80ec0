// The credential store on both backends: SQLite (the default) and Postgres (a shared store).
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { manualClock } from "../../src/clock.ts";
import { openSqlite, type Db } from "../../src/store/db.ts";
import { hashSecret } from "../../src/store/crypto.ts";
import { GrantStore } from "../../src/store/grants.ts";
import { PendingStore } from "../../src/store/pending.ts";
import { migrate } from "../../src/store/schema.ts";
import { storesOver } from "../../src/store/store.ts";
import { USERS } from "../support/dovecot.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { BACKENDS, closeStoresAfterEach } from "../support/stores.ts";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const master = new Uint8Array(32).fill(3);
const creds = new TextEncoder().encode(JSON.stringify({ password: "p@ss-UNIQUE-8842" }));
const CODE = "C".repeat(24) + "odeUnique0123456789abcdef";
const TOKEN = "ab".repeat(32);

closeStoresAfterEach();

function over(db: Db) {
  const clock = manualClock();
  return { clock, db, store: new GrantStore(db, master, clock), pending: new PendingStore(db, clock) };
}

type Setup = ReturnType<typeof over>;

async function issue({ store, pending }: Setup) {
  const { requestId } = await pending.create(
    { redirectUri: "http://localhost:6274/oauth/callback", codeChallenge: "x".repeat(43), state: "s", resource: null },
    10 * MIN,
  );
  const p = (await pending.get(requestId))!;
  await store.issueCode(CODE, p, creds, 5 * MIN);
  return { requestId };
}

async function redeem(store: GrantStore, token = TOKEN, ttl = 30 * DAY) {
  return store.redeemCode(CODE, (await store.findCode(CODE))!, token, "email:read email:write", ttl);
}

const COUNTS = {
  grants: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM grants`,
  tokens: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM tokens`,
  codes: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM codes`,
};
const count = async (db: Db, table: keyof typeof COUNTS) => Number((await COUNTS[table](db))[0]!.n);

for (const backend of BACKENDS) {
  const setup = async () => over(await backend.open());

  describe(`GrantStore on ${backend.name}`, () => {
    test("a version-1 store upgrades: its pending requests stay usable, without a client key", async () => {
      const db = await backend.create();
      await migrate(db, 1);
      await db.q`INSERT INTO pending_requests (id_hash, csrf_hash, redirect_uri, code_challenge, state, resource, expires_at)
                 VALUES (${hashSecret("old")}, ${hashSecret("csrf")}, 'r', 'c', 's', NULL, ${Date.now() + MIN})`;
      expect(await migrate(db)).toBe(1);
      const pending = new PendingStore(db, manualClock());
      expect(await pending.get("old")).not.toBeNull();
      expect(await pending.topHolder()).toEqual({ clientKey: null, count: 1 });
    });

    test("pending requests per client: counted, the biggest holder found, its oldest dropped", async () => {
      const { pending, clock } = await setup();
      const p = { redirectUri: "r", codeChallenge: "c", state: "s", resource: null };
      await pending.create(p, 10 * MIN, "ip:a");
      clock.advance(MIN);
      await pending.create(p, 10 * MIN, "ip:a");
      await pending.create(p, 10 * MIN, "ip:b");
      expect(await pending.heldBy("ip:a")).toEqual({ count: 2, firstExpiry: clock() - MIN + 10 * MIN });
      expect(await pending.heldBy("ip:c")).toEqual({ count: 0, firstExpiry: null });
      expect(await pending.topHolder()).toEqual({ clientKey: "ip:a", count: 2 });
      await pending.dropOldest("ip:a");
      expect(await pending.heldBy("ip:a")).toEqual({ count: 1, firstExpiry: clock() + 10 * MIN });
      clock.advance(10 * MIN);
      expect((await pending.heldBy("ip:b")).count).toBe(0); // expired rows do not count
    });

    test("pending requests expire after their TTL and are consumed by a code", async () => {
      const s = await setup();
      const { requestId, csrfToken } = await s.pending.create({ redirectUri: "r", codeChallenge: "c", state: "s", resource: null }, 10 * MIN);
      const p = (await s.pending.get(requestId))!;
      expect(s.pending.csrfMatches(p, csrfToken)).toBe(true);
      expect(s.pending.csrfMatches(p, csrfToken + "x")).toBe(false);
      s.clock.advance(10 * MIN);
      expect(await s.pending.get(requestId)).toBeNull();
      const again = await issue(s);
      expect(await s.pending.get(again.requestId)).toBeNull();
    });

    test("code → token: credentials open with the token, not with the code afterwards", async () => {
      const s = await setup();
      await issue(s);
      expect((await s.store.findCode(CODE))!.usedAt).toBeNull();
      const tok = await redeem(s.store);
      expect(tok?.scope).toBe("email:read email:write");
      expect(new TextDecoder().decode((await s.store.openCredentials(TOKEN))!)).toContain("p@ss-UNIQUE-8842");
      expect((await s.store.findCode(CODE))!.usedAt).not.toBeNull();
      expect(await redeem(s.store, "cd".repeat(32), DAY)).toBeNull();
    });

    test("two exchanges of one code at once: exactly one wins", async () => {
      const s = await setup();
      await issue(s);
      const record = (await s.store.findCode(CODE))!;
      const results = await Promise.all(["01", "02", "03"].map((t) => s.store.redeemCode(CODE, record, t.repeat(32), "s", DAY)));
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    });

    test("a replayed code revokes the token issued from it", async () => {
      const s = await setup();
      await issue(s);
      await redeem(s.store);
      expect(await s.store.revokeFromReplayedCode((await s.store.findCode(CODE))!)).toBe(hashSecret(TOKEN));
      expect(await s.store.findToken(TOKEN)).toBeNull();
      expect(await s.store.openCredentials(TOKEN)).toBeNull();
    });

    test("a replay after the code's 5 minutes (and a purge) still revokes the token", async () => {
      const s = await setup();
      await issue(s);
      await redeem(s.store);
      s.clock.advance(60 * MIN);
      await s.store.purgeExpired();
      const record = await s.store.findCode(CODE);
      expect(record?.usedAt).not.toBeNull();
      expect(await s.store.revokeFromReplayedCode(record!)).toBe(hashSecret(TOKEN));
      expect(await s.store.findToken(TOKEN)).toBeNull();
    });

    test("a used code row goes once its token is gone", async () => {
      const s = await setup();
      await issue(s);
      await redeem(s.store);
      s.clock.advance(30 * DAY);
      await s.store.purgeExpired();
      expect(await s.store.findCode(CODE)).toBeNull();
      expect(await count(s.db, "grants")).toBe(0);
    });

    test("tokens expire after 30 days; revoke destroys the credentials", async () => {
      const s = await setup();
      await issue(s);
      await redeem(s.store);
      s.clock.advance(30 * DAY - 1);
      expect(await s.store.findToken(TOKEN)).not.toBeNull();
      expect(await s.store.revokeToken(TOKEN)).toBe(hashSecret(TOKEN));
      expect(await s.store.revokeToken(TOKEN)).toBeNull();
      expect(await s.store.findToken(TOKEN)).toBeNull();
      expect(await count(s.db, "grants")).toBe(0);
      expect(await count(s.db, "tokens")).toBe(0); // ON DELETE CASCADE
      expect(await s.store.revokeToken("ff".repeat(32))).toBeNull();
    });

    test("expiry by clock and purge removes expired rows and orphaned grants", async () => {
      const s = await setup();
      await issue(s);
      s.clock.advance(5 * MIN);
      await s.store.purgeExpired();
      expect(await s.store.findCode(CODE)).toBeNull();
      expect(await count(s.db, "grants")).toBe(0);
    });
  });
}

describe("the SQLite file", () => {
  test("schema: STRICT tables, user_version = the migrations applied, file 0600", async () => {
    const dir = mkdtempSync(join(tmpdir(), "grants-"));
    const db = await openSqlite(join(dir, "db.sqlite"));
    await migrate(db);
    expect(statSync(join(dir, "db.sqlite")).mode & 0o777).toBe(0o600);
    const [v] = await db.q<{ user_version: number }>`PRAGMA user_version`;
    const { SCHEMA_VERSION } = await import("../../src/store/schema.ts");
    expect(v!.user_version).toBe(SCHEMA_VERSION);
    // sqlite_sequence (SQLite's own AUTOINCREMENT bookkeeping) is not ours to declare.
    const tables = await db.q<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`;
    expect(tables.map((t) => t.name).sort()).toEqual([
      "account_sessions", "activity", "clients", "codes", "grant_mailboxes", "grants", "held_subjects", "limit_events", "mailbox_identities", "mcp_session_answers", "mcp_sessions", "pending_requests", "revocations",
      "send_confirmations", "send_ledger", "send_recipients", "sent_marks", "store_meta", "tokens", "upstream_flows",
    ]);
    for (const { sql } of tables) expect(sql).toContain("STRICT");
    await db.close();
  });

  test("never holds the password, the code or the token in clear (WAL, secure_delete)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "grants-"));
    const db = await openSqlite(join(dir, "db.sqlite"));
    await migrate(db);
    const s = over(db);
    await issue(s);
    await redeem(s.store);
    expect(readdirSync(dir)).toContain("db.sqlite-wal");
    await db.q`PRAGMA wal_checkpoint(FULL)`;
    for (const f of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, f)).toString("latin1");
      for (const secret of ["p@ss-UNIQUE-8842", CODE, TOKEN]) expect(bytes.includes(secret)).toBe(false);
    }
    await db.close();
  });
});

describe("the bookkeeping connection", () => {
  test("a grant's last use and the activity rows are written on the connection without a sync per commit, not on the main one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "grants-"));
    const main = await openSqlite(join(dir, "db.sqlite"));
    await migrate(main);
    const bookkeeping = await openSqlite(join(dir, "db.sqlite"), { synchronous: "NORMAL" });
    const store = storesOver(main, new Uint8Array(32).fill(3), manualClock(), { sessionDb: bookkeeping });
    const { token } = await issueTestGrant(store, testAccount(USERS.alice, { host: "localhost", port: 143 }));
    const { grantId } = (await store.grants.findToken(token))!;
    const written = (db: Db) => {
      const seen: string[] = [];
      const q = db.q.bind(db);
      db.q = ((strings: TemplateStringsArray, ...values: unknown[]) => (seen.push(strings.join("?")), q(strings, ...values))) as Db["q"];
      return seen;
    };
    const [onMain, onBookkeeping] = [written(main), written(bookkeeping)];
    await store.grants.touchGrant(grantId);
    await store.activity.record({ grantId, tool: "move_email", outcome: "ok", details: { folder: "INBOX", uids: [1] } });
    expect(onBookkeeping.some((sql) => sql.includes("UPDATE grants SET last_used_at"))).toBe(true);
    expect(onBookkeeping.some((sql) => sql.includes("INSERT INTO activity"))).toBe(true);
    expect(onMain).toEqual([]);
    expect((await store.activity.list({})).map((r) => r.tool)).toEqual(["move_email"]);
    await store.close();
  });
});
