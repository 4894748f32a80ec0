// Session rows (src/store/mcp-sessions.ts): hashed ids, least-recently-used eviction per token and
// overall, idle deletion, and the cascade that ends a token's sessions when its grant goes. On both backends.
import { describe, expect, test } from "bun:test";
import { GrantStore } from "../../src/store/grants.ts";
import { SessionRows, sessionKey } from "../../src/store/mcp-sessions.ts";
import { ClientStore } from "../../src/store/clients.ts";
import { PendingStore } from "../../src/store/pending.ts";
import { manualClock } from "../../src/clock.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { USERS } from "../support/dovecot.ts";
import { openStore } from "../../src/store/store.ts";
import { BACKENDS, closeStoresAfterEach, freshDatabaseUrl } from "../support/stores.ts";

closeStoresAfterEach();

for (const backend of BACKENDS) {
  async function setup() {
    const db = await backend.open();
    const clock = manualClock(Date.now());
    const grants = new GrantStore(db, new Uint8Array(32).fill(7), clock);
    const pending = new PendingStore(db, clock);
    const account = testAccount(USERS.alice, { host: "localhost", port: 1 });
    const a = await issueTestGrant({ grants, pending }, account);
    const b = await issueTestGrant({ grants, pending }, account);
    return { db, grants, pending, rows: new SessionRows(db), a, b };
  }

  describe(`session rows on ${backend.name}`, () => {
    test("the key is the id's SHA-256, never the id", async () => {
      const { db, rows, a } = await setup();
      await rows.insert(sessionKey("the-session-id"), a.tokenId, "{}", 1);
      expect(sessionKey("the-session-id")).toMatch(/^[0-9a-f]{64}$/);
      const all = [...(await db.q<{ id_hash: string }>`SELECT id_hash FROM mcp_sessions`)];
      expect(all).toEqual([{ id_hash: sessionKey("the-session-id") }]);
      expect(await rows.find(sessionKey("the-session-id"))).toEqual({ tokenId: a.tokenId, lastSeen: 1 });
      expect(await rows.find(sessionKey("other"))).toBeNull();
    });

    const caps = (perToken: number, total: number, perClient = 1000) => ({ perToken, perClient, total });

    test("evict: the token's own least recently used beyond its cap", async () => {
      const { rows, a } = await setup();
      await rows.insert("a1", a.tokenId, "{}", 10);
      await rows.insert("a2", a.tokenId, "{}", 20);
      await rows.insert("a3", a.tokenId, "{}", 30);
      await rows.touch("a1", 40); // a1 is now a's most recent
      expect(await rows.evict(a.tokenId, caps(2, 10))).toEqual(["a2"]);
      expect(await rows.countFor(a.tokenId)).toBe(2);
    });

    test("at the total: the owner holding the most gives one up, never another holding as few as the newcomer's", async () => {
      const { db, grants, pending, rows } = await setup();
      const account = testAccount(USERS.alice, { host: "localhost", port: 1 });
      // Mallory: two tokens of one mailbox login (one owner); Alice: one token, one old session.
      const m1 = await issueTestGrant({ grants, pending }, account, undefined, { login: "mallory" });
      const m2 = await issueTestGrant({ grants, pending }, account, undefined, { login: "mallory" });
      const alice = await issueTestGrant({ grants, pending }, account, undefined, { login: "alice" });
      await rows.insert("alice1", alice.tokenId, "{}", 1); // the least recently used of all
      for (let i = 0; i < 3; i++) await rows.insert(`m1-${i}`, m1.tokenId, "{}", 10 + i);
      await rows.insert("m2-0", m2.tokenId, "{}", 20);
      // Mallory's new session over a total of 4: Mallory's own oldest goes, not Alice's older one.
      expect(await rows.evict(m2.tokenId, caps(100, 4))).toEqual(["m1-0"]);
      expect(await rows.find("alice1")).not.toBeNull();
      // A newcomer holding nothing takes room from the heaviest holder (Mallory, 3), not from Alice (1).
      const bob = await issueTestGrant({ grants, pending }, account, undefined, { login: "bob" });
      await rows.insert("bob1", bob.tokenId, "{}", 30);
      expect(await rows.evict(bob.tokenId, caps(100, 4))).toEqual(["m1-1"]);
      // Grants from before migration 9 (no mailbox key) are owners of their own.
      expect(await db.q`SELECT id FROM grants WHERE mailbox_key IS NULL`).toHaveLength(2);
    });

    test("at the total with every owner holding one: the newcomer itself is refused", async () => {
      const { rows, a, b } = await setup(); // two grants without a mailbox key: two owners
      await rows.insert("a1", a.tokenId, "{}", 1);
      await rows.insert("b1", b.tokenId, "{}", 2);
      expect(await rows.evict(b.tokenId, caps(100, 1))).toEqual(["b1"]);
      expect(await rows.find("a1")).not.toBeNull();
    });

    test("a registered client's tokens together: its own least recently used beyond its cap", async () => {
      const { db, grants, pending, rows, a } = await setup();
      await new ClientStore(db, Date.now, 86_400_000).insert({ id: "dyn-app", secretHash: null, authMethod: "none", name: null, redirectUris: [] });
      const account = testAccount(USERS.alice, { host: "localhost", port: 1 });
      const x = await issueTestGrant({ grants, pending }, account, undefined, { login: "x", clientId: "dyn-app" });
      const y = await issueTestGrant({ grants, pending }, account, undefined, { login: "y", clientId: "dyn-app" });
      await rows.insert("other", a.tokenId, "{}", 1);
      await rows.insert("x1", x.tokenId, "{}", 2);
      await rows.insert("y1", y.tokenId, "{}", 3);
      await rows.insert("y2", y.tokenId, "{}", 4);
      expect(await rows.evict(y.tokenId, caps(100, 100, 2))).toEqual(["x1"]);
      expect(await rows.find("other")).not.toBeNull(); // the configured client's sessions are not the app's
    });

    test("deleteIdle and existing", async () => {
      const { rows, a } = await setup();
      await rows.insert("old", a.tokenId, "{}", 100);
      await rows.insert("new", a.tokenId, "{}", 200);
      expect(await rows.deleteIdle(150)).toEqual(["old"]);
      expect([...(await rows.existing(["old", "new", "never"]))]).toEqual(["new"]);
      expect((await rows.existing([])).size).toBe(0);
    });

    test("revoking the token (its grant goes) deletes its sessions; other tokens' stay", async () => {
      const { grants, rows, a, b } = await setup();
      await rows.insert("a1", a.tokenId, "{}", 1);
      await rows.insert("b1", b.tokenId, "{}", 1);
      await grants.revokeToken(a.token);
      expect(await rows.find("a1")).toBeNull();
      expect(await rows.find("b1")).not.toBeNull();
    });

    test("a session cannot be recorded for a token the store does not have", async () => {
      const { rows } = await setup();
      await expect(rows.insert("x", "f".repeat(64), "{}", 1)).rejects.toThrow();
    });
  });
}

describe("session rows on one Postgres shared by three instances", () => {
  test("instances opening sessions for one token at once evict without a deadlock", async () => {
    const url = await freshDatabaseUrl("evict");
    const key = new Uint8Array(32).fill(3);
    const stores = await Promise.all([1, 2, 3].map(() => openStore({ databaseUrl: url, sqlitePath: ":memory:", masterKey: key, clock: Date.now })));
    try {
      const { tokenId } = await issueTestGrant(stores[0]!, testAccount(USERS.alice, { host: "imap.example.test", port: 993 }));
      const errors: string[] = [];
      let n = 0;
      // 12 initializes at a time across the three, each over the per-token cap of 5: every one evicts.
      await Promise.all(Array.from({ length: 12 }, async (_, w) => {
        for (let i = 0; i < 25; i++) {
          const s = stores[w % 3]!;
          await s.sessions.insert(`k${n++}`, tokenId, "{}", Date.now()).catch((e: Error) => errors.push(e.message));
          await s.sessions.evict(tokenId, { perToken: 5, perClient: 1000, total: 1000 }).catch((e: Error) => errors.push(e.message));
        }
      }));
      expect(errors).toEqual([]);
      expect(await stores[1]!.sessions.countFor(tokenId)).toBe(5);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  }, 30_000);
});
