// The registered-client store and migration 2 on a database made by migration 1 alone.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { ClientStore } from "../../src/store/clients.ts";
import { migrate, openDatabase } from "../../src/store/db.ts";
import { GrantStore } from "../../src/store/grants.ts";
import { migrations } from "../../src/store/migrations.ts";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const master = new Uint8Array(32).fill(5);

function setup() {
  const clock = manualClock();
  const db = openDatabase(":memory:");
  return { clock, db, clients: new ClientStore(db, clock, 30 * DAY), grants: new GrantStore(db, master, clock) };
}

const add = (clients: ClientStore, id: string) =>
  clients.insert({ id, secretHash: null, authMethod: "none", name: null, redirectUris: ["http://localhost/cb"] });

describe("ClientStore", () => {
  test("round trip; expiry 30 days after registration, or after the latest grant", async () => {
    const { clock, clients, grants } = setup();
    add(clients, "a");
    add(clients, "b");
    expect(clients.find("a")).toMatchObject({ id: "a", authMethod: "none", redirectUris: ["http://localhost/cb"], grantedAt: null });
    clock.advance(20 * DAY);
    // A code issued for "b" is its grant (GrantStore.issueCode marks it in the same transaction).
    const pending = grants.createPending({ clientId: "b", redirectUri: "http://localhost/cb", codeChallenge: "c", state: "s", resource: null }, HOUR);
    await grants.issueCode("X".repeat(48), grants.getPending(pending.requestId)!, new Uint8Array([1]), 5 * 60_000);
    expect(grants.findCode("X".repeat(48))?.clientId).toBe("b");
    clock.advance(10 * DAY);
    expect(clients.find("a")).toBeNull();
    expect(clients.find("b")?.grantedAt).toBe(clock() - 10 * DAY);
    expect(clients.countLive()).toBe(1);
    clients.purgeExpired();
    clock.advance(20 * DAY - 1);
    expect(clients.find("b")).not.toBeNull();
    clock.advance(1);
    expect(clients.find("b")).toBeNull();
  });

  test("eviction takes the oldest never-granted registration older than the bound, and nothing else", async () => {
    const { clock, clients, grants, db } = setup();
    add(clients, "granted");
    const p = grants.createPending({ clientId: "granted", redirectUri: "r", codeChallenge: "c", state: "s", resource: null }, HOUR);
    await grants.issueCode("Y".repeat(48), grants.getPending(p.requestId)!, new Uint8Array([1]), 60_000);
    clock.advance(1000);
    add(clients, "old");
    clock.advance(1000);
    add(clients, "young");
    expect(clients.evictOldestUnused(clock() - 2000)).toBe(false); // "old" is 1 s old: not yet
    expect(clients.evictOldestUnused(clock() - 1000)).toBe(true);
    expect(db.query<{ id: string }, []>("SELECT id FROM clients ORDER BY id").all().map((r) => r.id)).toEqual(["granted", "young"]);
    expect(clients.evictOldestUnused(clock())).toBe(true);
    expect(clients.evictOldestUnused(clock())).toBe(false); // the granted one stays
  });
});

describe("migration 2 on a version-1 database", () => {
  test("existing pending requests and codes keep working with client_id NULL (the configured client)", () => {
    const db = new Database(":memory:", { strict: true });
    db.exec(migrations[0]!);
    db.exec("PRAGMA user_version = 1");
    db.query("INSERT INTO pending_requests VALUES ('h', 'c', 'r', 'ch', 's', NULL, ?)").run(Date.UTC(2026, 0, 2));
    db.query("INSERT INTO grants VALUES ('g', x'00', 0)").run();
    db.query("INSERT INTO codes VALUES ('k', 'g', x'01', 'ch', 'r', NULL, ?, NULL, NULL)").run(Date.UTC(2026, 0, 2));
    migrate(db);
    expect(db.query<{ user_version: number }, []>("PRAGMA user_version").get()!.user_version).toBe(migrations.length);
    expect(db.query("SELECT client_id FROM pending_requests").get()).toEqual({ client_id: null });
    expect(db.query("SELECT client_id FROM codes").get()).toEqual({ client_id: null });
    const grants = new GrantStore(db, master, manualClock());
    expect(grants.findCode("x")).toBeNull();
    expect(db.query("SELECT COUNT(*) AS n FROM clients").get()).toEqual({ n: 0 });
  });
});
