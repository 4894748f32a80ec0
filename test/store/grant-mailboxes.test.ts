// Migration 13 and the mailboxes of a connection (src/store/grant-mailboxes.ts), on SQLite and
// Postgres: a grant made before it becomes a one-mailbox connection its token still opens; a
// connection of several keeps each mailbox sealed on its own; `revoke <address>` removes one mailbox
// and revokes a connection left with none.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { hashSecret, newDataKey, seal, sealRecord, wrapDataKey } from "../../src/store/crypto.ts";
import { GrantMailboxes } from "../../src/store/grant-mailboxes.ts";
import { migrate } from "../../src/store/schema.ts";
import { storesOver } from "../../src/store/store.ts";
import { BACKENDS, closeStoresAfterEach, dumpStore } from "../support/stores.ts";
import { issueTestConnection, testAccount } from "../support/token.ts";

const master = new Uint8Array(32).fill(7);
const TOKEN = "cd".repeat(32);
const text = (b: Uint8Array | null) => (b ? new TextDecoder().decode(b) : null);
closeStoresAfterEach();

for (const backend of BACKENDS) {
  describe(`grant_mailboxes on ${backend.name}`, () => {
    test("migration 16: an existing grant becomes a one-mailbox connection; its token still opens it", async () => {
      const db = await backend.create();
      await migrate(db, 15);
      const dataKey = newDataKey();
      const sealed = await seal(dataKey, new TextEncoder().encode("old-secret-PW-4411"), "grant:g1");
      const wrapped = await wrapDataKey(master, TOKEN, dataKey, "grant:g1");
      const label = await sealRecord(master, { email: "Old@Example.test", host: "imap.example.test" }, "label:g1");
      await db.q`INSERT INTO grants (id, sealed_credentials, created_at, scope, sealed_label, send_policy)
                 VALUES ('g1', ${sealed}, 1, 'email:read', ${label}, 'always')`;
      await db.q`INSERT INTO tokens (token_hash, grant_id, wrapped_key, scope, resource, created_at, expires_at)
                 VALUES (${hashSecret(TOKEN)}, 'g1', ${wrapped}, 'email:read', NULL, 1, ${Date.now() + 86_400_000})`;
      await migrate(db);
      const boxes = new GrantMailboxes(db, master, manualClock(Date.now()));
      expect(text(await boxes.open(TOKEN, 0))).toBe("old-secret-PW-4411");
      expect(await boxes.list("g1")).toEqual([{ position: 0, mailboxKey: null, address: "old@example.test", provider: null, access: "read", sendPolicy: "always", signInLost: false }]);
      // The password is held once, in the mailbox row: the grant's copy is gone.
      const [g] = await db.q<{ sealed_credentials: Uint8Array }>`SELECT sealed_credentials FROM grants WHERE id = 'g1'`;
      expect(g!.sealed_credentials.length).toBe(0);
    });

    test("several mailboxes: each opens on its own, none in clear; revoke by address removes one, then the connection", async () => {
      const db = await backend.create();
      await migrate(db);
      const stores = storesOver(db, master, manualClock(Date.now()));
      const users = ["one", "two", "three"].map((n) => ({ user: `${n}@example.test`, pass: `${n}-pw-UNIQUE-77`, email: `${n}@example.test` }));
      const accounts = users.map((u) => ({ account: testAccount(u, { host: "localhost", port: 1 }) }));
      const { token, grantId } = await issueTestConnection(stores, accounts);
      for (const [i, u] of users.entries()) expect(text(await stores.mailboxes.open(token, i))).toContain(u.pass);
      const dump = await dumpStore(db);
      for (const u of users) expect(dump).not.toContain(u.pass);
      // Swapped rows do not open: each blob's AAD names its mailbox.
      await db.q`UPDATE grant_mailboxes SET sealed_credentials = (SELECT sealed_credentials FROM grant_mailboxes WHERE position = 0) WHERE position = 1`;
      await expect(stores.mailboxes.open(token, 1)).rejects.toThrow();
      // The owner's page of mailbox one: it holds the connection, its policy is its own, and taking it out leaves the others.
      const [one] = await stores.mailboxes.list(grantId);
      expect(await stores.ownerView.holds(grantId, one!.mailboxKey!)).toBe(true);
      expect(await stores.ownerView.setSendPolicy(grantId, one!.mailboxKey!, "never")).toBe(true);
      expect((await stores.mailboxes.list(grantId)).map((m) => m.sendPolicy)).toEqual(["never", "direct", "direct"]);
      const tokenId = hashSecret(token);
      const since = await stores.revocations.latest();
      expect(await stores.ownerView.removeMailbox(grantId, one!.mailboxKey!)).toEqual({ revoked: [], removed: [{ tokenId, position: 0 }] });
      expect((await stores.mailboxes.list(grantId)).map((m) => m.address)).toEqual(["two@example.test", "three@example.test"]);
      const removed = await stores.mailboxes.removeAddress("TWO@example.test");
      expect(removed).toEqual({ grants: [grantId], revokedGrants: [], revokedTokens: [], removed: [{ tokenId, position: 1 }] });
      // Positions never shift: what is left keeps its own, and opens its own credentials.
      expect((await stores.mailboxes.list(grantId)).map((m) => [m.position, m.address])).toEqual([[2, "three@example.test"]]);
      expect(text(await stores.mailboxes.open(token, 2))).toContain(users[2]!.pass);
      // Every instance hears of each removal as that token's mailbox, not as the token revoked.
      expect((await stores.revocations.after(since)).map((r) => [r.tokenId, r.position])).toEqual([[tokenId, 0], [tokenId, 1]]);
      const last = await stores.mailboxes.removeAddress("three@example.test");
      expect(last.revokedTokens).toEqual([hashSecret(token)]);
      expect(await stores.grants.findToken(token)).toBeNull();
    });
  });
}
