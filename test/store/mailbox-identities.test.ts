// Migration 14 and the mailbox_identities store on both backends (SQLite and the run's Postgres): a
// version-13 store upgrades, identities round-trip sealed (the row names no address), a second set
// replaces the first, and a mailbox nothing was set for is null.
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { manualClock } from "../../src/clock.ts";
import { MailboxIdentities } from "../../src/store/mailbox-identities.ts";
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
      expect(await store.get(key)).toEqual(settings);
      const [row] = await db.q<{ sealed: unknown }>`SELECT sealed FROM mailbox_identities WHERE mailbox_key = ${key}`;
      expect(Buffer.from(row!.sealed as Uint8Array).toString("latin1")).not.toContain("zoe@work.example");
      await store.set(key, { sendAs: [], signature: null });
      expect(await store.get(key)).toEqual({ sendAs: [], signature: null });
      expect(await store.forGrant("no-such-grant")).toBeNull();
    });
  });
}
