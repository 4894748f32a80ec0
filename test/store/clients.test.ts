// The registered-client store and migration 2 on a database made by migration 1 alone, on both backends.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { ClientStore } from "../../src/store/clients.ts";
import type { Db } from "../../src/store/db.ts";
import { GrantStore } from "../../src/store/grants.ts";
import { migrations } from "../../src/store/migrations.ts";
import { PendingStore } from "../../src/store/pending.ts";
import { migrate, schemaVersion } from "../../src/store/schema.ts";
import { BACKENDS, closeStoresAfterEach } from "../support/stores.ts";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const master = new Uint8Array(32).fill(5);

closeStoresAfterEach();

function over(db: Db) {
  const clock = manualClock();
  return {
    clock, db, clients: new ClientStore(db, clock, 30 * DAY), grants: new GrantStore(db, master, clock),
    pending: new PendingStore(db, clock),
  };
}

const add = (clients: ClientStore, id: string) =>
  clients.insert({ id, secretHash: null, authMethod: "none", name: null, redirectUris: ["http://localhost/cb"] });

for (const backend of BACKENDS) {
  const setup = async () => over(await backend.open());

  describe(`ClientStore on ${backend.name}`, () => {
    test("round trip; expiry 30 days after registration, or after the latest grant", async () => {
      const { clock, clients, grants, pending } = await setup();
      await add(clients, "a");
      await add(clients, "b");
      expect(await clients.find("a")).toMatchObject({ id: "a", authMethod: "none", redirectUris: ["http://localhost/cb"], grantedAt: null });
      clock.advance(20 * DAY);
      // A code issued for "b" is its grant (GrantStore.issueCode marks it in the same transaction).
      const p = await pending.create({ clientId: "b", redirectUri: "http://localhost/cb", codeChallenge: "c", state: "s", resource: null }, HOUR);
      await grants.issueCode("X".repeat(48), (await pending.get(p.requestId))!, new Uint8Array([1]), 5 * 60_000);
      expect((await grants.findCode("X".repeat(48)))?.clientId).toBe("b");
      clock.advance(10 * DAY);
      expect(await clients.find("a")).toBeNull();
      expect((await clients.find("b"))?.grantedAt).toBe(clock() - 10 * DAY);
      expect(await clients.countLive()).toBe(1);
      await clients.purgeExpired();
      clock.advance(20 * DAY - 1);
      expect(await clients.find("b")).not.toBeNull();
      clock.advance(1);
      expect(await clients.find("b")).toBeNull();
    });

    test("eviction takes the oldest never-granted registration older than the bound, and nothing else", async () => {
      const { clock, clients, grants, pending, db } = await setup();
      await add(clients, "granted");
      const p = await pending.create({ clientId: "granted", redirectUri: "r", codeChallenge: "c", state: "s", resource: null }, HOUR);
      await grants.issueCode("Y".repeat(48), (await pending.get(p.requestId))!, new Uint8Array([1]), 60_000);
      clock.advance(1000);
      await add(clients, "old");
      clock.advance(1000);
      await add(clients, "young");
      expect(await clients.evictOldestUnused(clock() - 2000)).toBe(false); // "old" is 1 s old: not yet
      expect(await clients.evictOldestUnused(clock() - 1000)).toBe(true);
      expect((await db.q<{ id: string }>`SELECT id FROM clients ORDER BY id`).map((r) => r.id)).toEqual(["granted", "young"]);
      expect(await clients.evictOldestUnused(clock())).toBe(true);
      expect(await clients.evictOldestUnused(clock())).toBe(false); // the granted one stays
    });
  });

  describe(`migration 2 on a version-1 database on ${backend.name}`, () => {
    test("existing pending requests and codes keep working with client_id NULL (the configured client)", async () => {
      const db = await backend.create();
      await migrate(db, 1);
      const expires = Date.UTC(2026, 0, 2);
      await db.q`INSERT INTO pending_requests (id_hash, csrf_hash, redirect_uri, code_challenge, state, resource, expires_at)
                 VALUES ('h', 'c', 'r', 'ch', 's', NULL, ${expires})`;
      await db.q`INSERT INTO grants (id, sealed_credentials, created_at) VALUES ('g', ${new Uint8Array([0])}, 0)`;
      await db.q`INSERT INTO codes (code_hash, grant_id, wrapped_key, code_challenge, redirect_uri, resource, expires_at, used_at, token_hash)
                 VALUES ('k', 'g', ${new Uint8Array([1])}, 'ch', 'r', NULL, ${expires}, NULL, NULL)`;
      await migrate(db);
      if (db.dialect === "sqlite") {
        expect((await db.q<{ user_version: number }>`PRAGMA user_version`)[0]!.user_version).toBe(migrations.length);
      }
      expect(await schemaVersion(db)).toBe(migrations.length);
      expect((await db.q`SELECT client_id FROM pending_requests`)[0]).toEqual({ client_id: null });
      expect((await db.q`SELECT client_id FROM codes`)[0]).toEqual({ client_id: null });
      const grants = new GrantStore(db, master, manualClock());
      expect(await grants.findCode("x")).toBeNull();
      expect(Number((await db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM clients`)[0]!.n)).toBe(0);
    });
  });
}
