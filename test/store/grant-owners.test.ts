// GrantStore.issueCode with an owner: the owner's grants beyond the newest `keep` are revoked in
// the same transaction; owners are keyed HMACs, never the login in clear; older databases migrate.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { hashSecret } from "../../src/store/crypto.ts";
import { migrate, openDatabase } from "../../src/store/db.ts";
import { GrantStore, type GrantOwner } from "../../src/store/grants.ts";
import { migrations } from "../../src/store/migrations.ts";

const master = new Uint8Array(32).fill(9);
const creds = new TextEncoder().encode("{}");
let n = 0;

function setup(db = openDatabase(":memory:")) {
  const clock = manualClock();
  return { db, clock, store: new GrantStore(db, master, clock) };
}

/** authorize → code → token through the store; returns the token. */
async function grant(store: GrantStore, owner: GrantOwner | null, revokedOut: string[] = []): Promise<string> {
  const { requestId } = store.createPending({ redirectUri: "r", codeChallenge: "c".repeat(43), state: "s", resource: null }, 60_000);
  const code = `code-${++n}-`.padEnd(48, "x");
  revokedOut.push(...(await store.issueCode(code, store.getPending(requestId)!, creds, 60_000, owner)));
  const token = `token-${n}-`.padEnd(64, "y");
  await store.redeemCode(code, store.findCode(code)!, token, "email:read email:write", 86_400_000);
  return token;
}

const alice = (keep = 2, clientId = "client-a"): GrantOwner => ({ clientId, login: "alice@example.test\0imap.example.test:993", keep });

describe("grant owners", () => {
  test("keeps the newest `keep` grants of an owner (same millisecond too); other owners and clients untouched", async () => {
    const { store } = setup();
    const revoked: string[] = [];
    const [t1, t2] = [await grant(store, alice(), revoked), await grant(store, alice(), revoked)];
    const other = await grant(store, alice(2, "client-b"), revoked);
    const ownerless = await grant(store, null, revoked);
    expect(revoked).toEqual([]);
    const t3 = await grant(store, alice(), revoked); // the clock has not moved: order by insertion
    expect(revoked).toEqual([hashSecret(t1)]); // the token id, for the revocation fan-out
    for (const live of [t2, t3, other, ownerless]) expect(store.findToken(live)).not.toBeNull();
    expect(await store.openCredentials(t1)).toBeNull();
  });

  test("the login is stored only as a keyed hash", async () => {
    const { store, db } = setup();
    await grant(store, alice());
    const row = db.query<{ owner_key: string }, []>("SELECT owner_key FROM grants").get()!;
    expect(row.owner_key).toMatch(/^[0-9a-f]{64}$/);
    const dump = JSON.stringify(db.query("SELECT * FROM grants").all());
    expect(dump).not.toContain("alice");
  });

  test("a database of schema 1 migrates; its grants have no owner and are never replaced", async () => {
    const db = new Database(":memory:", { strict: true });
    db.exec(migrations[0]!);
    db.exec("PRAGMA user_version = 1");
    db.query("INSERT INTO grants VALUES ('old', x'00', 0)").run();
    migrate(db);
    const { store } = setup(db);
    for (let i = 0; i < 4; i++) await grant(store, alice(1));
    expect(db.query("SELECT id FROM grants WHERE owner_key IS NULL").all()).toEqual([{ id: "old" }]);
    expect(db.query("SELECT COUNT(*) AS n FROM grants WHERE owner_key IS NOT NULL").get()).toEqual({ n: 1 });
  });
});
