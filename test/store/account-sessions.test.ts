// The owner's page sessions (src/store/account-sessions.ts): only a hash stored, 30 minutes idle, 12 hours at most, ended by sign-out.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { memoryStore } from "../../src/store/store.ts";

const MIN = 60_000;

function fresh() {
  const clock = manualClock(Date.UTC(2026, 10, 1));
  return { clock, store: memoryStore(new Uint8Array(32).fill(3), clock) };
}

describe("AccountSessions", () => {
  test("the id is kept only as its hash; the address only sealed", async () => {
    const { store } = fresh();
    const id = await store.accountSessions.open("mbx-key", "alice@example.test");
    const rows = await store.db.q<Record<string, unknown>>`SELECT * FROM account_sessions`;
    const dump = JSON.stringify(rows, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : v));
    expect(dump).not.toContain(id);
    expect(dump).not.toContain("alice@example.test");
    expect(await store.accountSessions.find(id)).toMatchObject({ mailboxKey: "mbx-key", email: "alice@example.test" });
    expect(await store.accountSessions.find(id.replace(/.$/, (c) => (c === "0" ? "1" : "0"))) ).toBeNull();
  });

  test("30 minutes without use ends it; use keeps it up to 12 hours; sign-out ends it at once", async () => {
    const { store, clock } = fresh();
    const idle = await store.accountSessions.open("k", "a@x.test");
    clock.advance(30 * MIN);
    expect(await store.accountSessions.find(idle)).toBeNull();
    const busy = await store.accountSessions.open("k", "a@x.test");
    for (let t = 0; t < 12 * 60 - 20; t += 20) {
      clock.advance(20 * MIN);
      expect(await store.accountSessions.find(busy)).not.toBeNull();
    }
    clock.advance(20 * MIN);
    expect(await store.accountSessions.find(busy)).toBeNull();
    const out = await store.accountSessions.open("k", "a@x.test");
    await store.accountSessions.end((await store.accountSessions.find(out))!.idHash);
    expect(await store.accountSessions.find(out)).toBeNull();
  });
});
