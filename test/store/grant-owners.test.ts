// GrantStore.issueCode with an owner: the owner's grants beyond the newest `keep` are revoked in
// the same transaction; owners are keyed HMACs, never the login in clear; older stores migrate.
// On both backends.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { hashSecret } from "../../src/store/crypto.ts";
import type { Db } from "../../src/store/db.ts";
import { GrantStore, type GrantOwner } from "../../src/store/grants.ts";
import { PendingStore } from "../../src/store/pending.ts";
import { migrate } from "../../src/store/schema.ts";
import { BACKENDS, closeStoresAfterEach } from "../support/stores.ts";

const master = new Uint8Array(32).fill(9);
const creds = new TextEncoder().encode("{}");
let n = 0;

closeStoresAfterEach();

function over(db: Db) {
  const clock = manualClock();
  return { db, clock, store: new GrantStore(db, master, clock), pending: new PendingStore(db, clock) };
}

/** authorize → code → token through the store; returns the token. */
async function grant(s: ReturnType<typeof over>, owner: GrantOwner | null, revokedOut: string[] = []): Promise<string> {
  const i = ++n;
  const { requestId } = await s.pending.create({ redirectUri: "r", codeChallenge: "c".repeat(43), state: "s", resource: null }, 60_000);
  const code = `code-${i}-`.padEnd(48, "x");
  revokedOut.push(...(await s.store.issueCode(code, (await s.pending.get(requestId))!, creds, 60_000, owner)));
  const token = `token-${i}-`.padEnd(64, "y");
  await s.store.redeemCode(code, (await s.store.findCode(code))!, token, "email:read email:write", 86_400_000);
  return token;
}

const alice = (keep = 2, clientId = "client-a"): GrantOwner => ({ clientId, login: "alice@example.test\0imap.example.test:993", keep });

for (const backend of BACKENDS) {
  describe(`grant owners on ${backend.name}`, () => {
    test("keeps the newest `keep` grants of an owner (same millisecond too); other owners and clients untouched", async () => {
      const s = over(await backend.open());
      const revoked: string[] = [];
      const [t1, t2] = [await grant(s, alice(), revoked), await grant(s, alice(), revoked)];
      const other = await grant(s, alice(2, "client-b"), revoked);
      const ownerless = await grant(s, null, revoked);
      expect(revoked).toEqual([]);
      const t3 = await grant(s, alice(), revoked); // the clock has not moved: order by insertion
      expect(revoked).toEqual([hashSecret(t1)]); // the token id, for the revocation fan-out
      for (const live of [t2, t3, other, ownerless]) expect(await s.store.findToken(live)).not.toBeNull();
      expect(await s.store.openCredentials(t1)).toBeNull();
    });

    test("connects of one login at once keep exactly `keep` grants", async () => {
      const s = over(await backend.open());
      const codes = await Promise.all(Array.from({ length: 6 }, async (_, i) => {
        const { requestId } = await s.pending.create({ redirectUri: "r", codeChallenge: "c".repeat(43), state: "s", resource: null }, 60_000);
        const code = `race-${i}-`.padEnd(48, "x");
        await s.store.issueCode(code, (await s.pending.get(requestId))!, creds, 60_000, alice(2));
        return code;
      }));
      // The unexchanged codes of the replaced grants went with them.
      expect((await Promise.all(codes.map((c) => s.store.findCode(c)))).filter(Boolean)).toHaveLength(2);
      const [row] = await s.db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM grants`;
      expect(Number(row!.n)).toBe(2);
    });

    test("the login is stored only as a keyed hash", async () => {
      const s = over(await backend.open());
      await grant(s, alice());
      const rows = await s.db.q<{ owner_key: string }>`SELECT owner_key FROM grants`;
      expect(rows[0]!.owner_key).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(await s.db.q`SELECT id, owner_key, created_at FROM grants`)).not.toContain("alice");
    });

    test("a store of schema 1 migrates; its grants have no owner and are never replaced", async () => {
      const db = await backend.create();
      await migrate(db, 1);
      await db.q`INSERT INTO grants (id, sealed_credentials, created_at) VALUES ('old', ${new Uint8Array([0])}, 0)`;
      await migrate(db);
      const s = over(db);
      for (let i = 0; i < 4; i++) await grant(s, alice(1));
      expect([...(await db.q`SELECT id FROM grants WHERE owner_key IS NULL`)]).toEqual([{ id: "old" }]);
      const [owned] = await db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM grants WHERE owner_key IS NOT NULL`;
      expect(Number(owned!.n)).toBe(1);
    });
  });
}
