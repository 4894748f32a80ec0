// Migration 14 and the mailbox_identities store on both backends (SQLite and the run's Postgres): a
// version-13 store upgrades, identities round-trip sealed (the row names no address), a second set
// replaces the first, and a mailbox nothing was set for is null. Signatures per address: a record
// sealed before them gives every address the mailbox's one signature; an address listed again
// without a signature keeps its own.
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { manualClock } from "../../src/clock.ts";
import { MailboxIdentities } from "../../src/store/mailbox-identities.ts";
import { sealRecord } from "../../src/store/crypto.ts";
import { migrate, SCHEMA_VERSION } from "../../src/store/schema.ts";
import { BACKENDS } from "../support/stores.ts";

const settings = { sendAs: [{ name: "Zoë at Work", address: "zoe@work.example" }], signature: "Zoë\n-- not a delimiter" };

for (const backend of BACKENDS) {
  describe(`mailbox_identities on ${backend.name}`, () => {
    test("a version-13 store migrates to 14; identities round-trip sealed and are replaced by the next set", async () => {
      const db = await backend.create();
      await migrate(db, 13);
      expect(await migrate(db)).toBe(13);
      expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(14);
      const store = new MailboxIdentities(db, randomBytes(32), manualClock());
      const key = store.keyOf("zoe@example.test");
      expect(await store.get(key)).toBeNull();
      await store.set(key, settings);
      // A new address listed without a signature has none (the login's is the mailbox record's own).
      expect(await store.get(key)).toEqual({ sendAs: [{ ...settings.sendAs[0]!, signature: null }], signature: settings.signature });
      const [row] = await db.q<{ sealed: unknown }>`SELECT sealed FROM mailbox_identities WHERE mailbox_key = ${key}`;
      expect(Buffer.from(row!.sealed as Uint8Array).toString("latin1")).not.toContain("zoe@work.example");
      await store.set(key, { sendAs: [], signature: null });
      expect(await store.get(key)).toEqual({ sendAs: [], signature: null });
      expect(await store.forGrant("no-such-grant")).toBeNull();
    });

    test("a record sealed before signatures per address: each address gets the mailbox's one; listed again, an address keeps its own", async () => {
      const db = await backend.create();
      await migrate(db);
      const master = randomBytes(32);
      const store = new MailboxIdentities(db, master, manualClock());
      const key = store.keyOf("zoe-legacy@example.test");
      const legacy = await sealRecord(master, settings, `identities:${key}`);
      await db.q`INSERT INTO mailbox_identities (mailbox_key, sealed, updated_at) VALUES (${key}, ${legacy}, ${0})`;
      expect(await store.get(key)).toEqual({ sendAs: [{ ...settings.sendAs[0]!, signature: settings.signature }], signature: settings.signature });
      await store.set(key, { sendAs: [{ name: null, address: "ZOE@work.example", signature: "Work sig" }], signature: null });
      await store.set(key, { sendAs: [{ name: "Zoë", address: "zoe@work.example" }, { name: null, address: "new@shop.example" }], signature: "Home" });
      expect(await store.get(key)).toEqual({
        sendAs: [{ name: "Zoë", address: "zoe@work.example", signature: "Work sig" }, { name: null, address: "new@shop.example", signature: null }],
        signature: "Home",
      });
    });
  });
}
