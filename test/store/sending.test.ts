// What the send gate keeps in the store (src/store/send-*.ts, migration 11), on both backends: the
// grant's send policy (grants made before it keep sending without asking), the at-most-once ledger,
// the grant's delivered recipients as keyed hashes, and single-use confirmation nonces.
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { manualClock } from "../../src/clock.ts";
import { LEDGER_WINDOW_MS, SendLedger } from "../../src/store/send-ledger.ts";
import { migrate } from "../../src/store/schema.ts";
import { migrations } from "../../src/store/migrations.ts";
import { V16_GRANT_MAILBOXES } from "../../src/store/migrations/v16-grant-mailboxes.ts";
import { storesOver } from "../../src/store/store.ts";
import { BACKENDS, closeStoresAfterEach, withInstances } from "../support/stores.ts";

const master = new Uint8Array(32).fill(9);
closeStoresAfterEach();

async function grantIn(s: ReturnType<typeof storesOver>, info: Parameters<typeof s.grants.issueCode>[5] = {}): Promise<string> {
  const { requestId } = await s.pending.create({ redirectUri: "http://localhost:6274/oauth/callback", codeChallenge: "x".repeat(43), state: "s", resource: null }, 60_000);
  await s.grants.issueCode(randomBytes(24).toString("hex"), (await s.pending.get(requestId))!, new Uint8Array([1]), 60_000, null, info);
  const [row] = await s.db.q<{ id: string }>`SELECT id FROM grants ORDER BY created_at DESC LIMIT 1`;
  return row!.id;
}

for (const backend of BACKENDS) {
  describe(`sending state on ${backend.name}`, () => {
    test("a grant made before send policies keeps sending without asking; new grants get the form's choice, by default ask for new recipients", async () => {
      const db = await backend.create();
      // Just before grant_mailboxes (migration 16), which carries a grant's row into a connection; later ones keep it.
      await migrate(db, migrations.indexOf(V16_GRANT_MAILBOXES));
      await db.q`INSERT INTO grants (id, sealed_credentials, created_at) VALUES ('old', ${new Uint8Array([1])}, 1)`;
      await migrate(db);
      const s = storesOver(db, master, manualClock());
      expect(await s.grants.sendPolicy("old")).toBe("direct");
      expect(await s.grants.sendPolicy("nope")).toBeNull();
      const chosen = await grantIn(s, { sendPolicy: "always" });
      expect(await s.grants.sendPolicy(chosen)).toBe("always");
      await db.q`DELETE FROM grants WHERE id = ${chosen}`;
      expect(await s.grants.sendPolicy(await grantIn(s))).toBe("new_recipients");
    });

    test("the ledger: one claim per digest, retries see the first outcome, a released claim can be taken again, the window ends it", async () => {
      const clock = manualClock();
      const s = storesOver(await backend.open(), master, clock);
      const ledger = s.sendLedger;
      expect(await ledger.claim("g1", "d1")).toEqual({ claimed: true });
      const again = await ledger.claim("g1", "d1");
      expect(again.claimed).toBe(false);
      expect(again.claimed === false && again.entry.state).toBe("sending");
      expect(await ledger.claim("g2", "d1")).toEqual({ claimed: true }); // another grant's message
      clock.advance(1000);
      await ledger.finish("g1", "d1", { status: "sent", accepted: ["bob@example.test"] });
      const seen = await ledger.find<{ status: string }>("g1", "d1");
      expect(seen).toMatchObject({ state: "done", outcome: { status: "sent", accepted: ["bob@example.test"] } });
      expect(seen!.updatedAt - seen!.createdAt).toBe(1000);
      expect(JSON.stringify(await s.db.q`SELECT * FROM send_ledger`)).not.toContain("bob@example.test");
      // Another key reads the state but not the sealed outcome.
      expect(await new SendLedger(s.db, new Uint8Array(32), clock).find("g1", "d1")).toMatchObject({ state: "done", outcome: null });
      await ledger.release("g2", "d1");
      expect(await ledger.claim("g2", "d1")).toEqual({ claimed: true });
      await ledger.release("g1", "d1"); // a finished one stays
      expect((await ledger.find("g1", "d1"))?.state).toBe("done");
      clock.advance(LEDGER_WINDOW_MS);
      expect(await ledger.find("g1", "d1")).toBeNull();
      expect(await ledger.claim("g1", "d1")).toEqual({ claimed: true }); // the same message later is a new message
      await ledger.purge();
      expect((await s.db.q`SELECT digest FROM send_ledger`).length).toBe(1);
    });

    test("delivered recipients: case-insensitive, per grant, stored only as keyed hashes, gone with the grant", async () => {
      const s = storesOver(await backend.open(), master, manualClock());
      const g = await grantIn(s);
      await s.sendRecipients.add(g, ["Bob@Example.test", "carol@example.net", "bob@example.test"]);
      expect([...(await s.sendRecipients.known(g, ["bob@example.TEST", "dave@example.org"]))]).toEqual(["bob@example.TEST"]);
      expect((await s.sendRecipients.known("other", ["bob@example.test"])).size).toBe(0);
      expect(JSON.stringify(await s.db.q`SELECT * FROM send_recipients`)).not.toContain("example");
      await s.db.q`DELETE FROM grants WHERE id = ${g}`;
      expect((await s.db.q`SELECT * FROM send_recipients`).length).toBe(0);
    });

    test("confirmation nonces are taken once, by their grant, before they expire", async () => {
      const clock = manualClock();
      const s = storesOver(await backend.open(), master, clock);
      const n = await s.sendConfirmations.issue("g1", 60_000);
      expect(await s.sendConfirmations.take("g2", n)).toBe(false);
      expect(await s.sendConfirmations.take("g1", n)).toBe(true);
      expect(await s.sendConfirmations.take("g1", n)).toBe(false);
      const late = await s.sendConfirmations.issue("g1", 60_000);
      clock.advance(60_000);
      expect(await s.sendConfirmations.take("g1", late)).toBe(false);
      expect(await s.sendConfirmations.take("g1", "0".repeat(32))).toBe(false);
    });

    test("relayed session answers are taken once, oldest first, by their session", async () => {
      const s = storesOver(await backend.open(), master, manualClock());
      await s.sessionAnswers.put("k1", '{"id":1}');
      await s.sessionAnswers.put("k2", '{"id":2}');
      await s.sessionAnswers.put("k1", '{"id":3}');
      expect((await s.sessionAnswers.take(["k1"])).map((a) => a.body)).toEqual(['{"id":1}', '{"id":3}']);
      expect(await s.sessionAnswers.take(["k1"])).toEqual([]);
      expect((await s.sessionAnswers.take(["k1", "k2"])).map((a) => a.sessionKey)).toEqual(["k2"]);
    });
  });
}

describe("several instances on one Postgres", () => {
  test("of concurrent claims of one message from three pools, exactly one wins", async () => {
    await withInstances("ledger", async (dbs) => {
      const clock = manualClock();
      const ledgers = dbs.map((db) => new SendLedger(db, master, clock));
      const claims = await Promise.all(Array.from({ length: 9 }, (_, i) => ledgers[i % 3]!.claim("g", "same")));
      expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    });
  });
});
