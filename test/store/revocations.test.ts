// The revocation signal and the owner's view of grants in the store: every way a token dies leaves a
// row with a growing seq; labels are sealed; GrantAdmin lists live grants and revokes them.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { hashSecret } from "../../src/store/crypto.ts";
import { openDatabase } from "../../src/store/db.ts";
import { GrantAdmin } from "../../src/store/grant-admin.ts";
import { GrantStore, type GrantInfo, type GrantOwner } from "../../src/store/grants.ts";
import { REVOCATION_RETENTION_MS, Revocations } from "../../src/store/revocations.ts";

const master = new Uint8Array(32).fill(5);
const DAY = 86_400_000;
let n = 0;

function setup() {
  const clock = manualClock();
  const db = openDatabase(":memory:");
  return { db, clock, store: new GrantStore(db, master, clock), admin: new GrantAdmin(db, master, clock), revocations: new Revocations(db) };
}

async function grant(store: GrantStore, info: GrantInfo = {}, owner: GrantOwner | null = null) {
  const { requestId } = store.createPending({ redirectUri: "https://claude.ai/api/mcp/auth_callback", codeChallenge: "c".repeat(43), state: "s", resource: null }, 60_000);
  const code = `code-${++n}-`.padEnd(48, "x");
  const replaced = await store.issueCode(code, store.getPending(requestId)!, new TextEncoder().encode("{}"), 60_000, owner, info);
  const token = `token-${n}-`.padEnd(64, "y");
  await store.redeemCode(code, store.findCode(code)!, token, "email:read email:write", 30 * DAY);
  return { code, token, tokenId: hashSecret(token), replaced };
}

const label = { email: "alice@example.test", host: "imap.example.test" };

describe("revocation signal", () => {
  test("every way a token dies appends its id with a growing seq", async () => {
    const { store, admin, revocations } = setup();
    expect(revocations.latest()).toBe(0);
    const viaRevoke = await grant(store);
    store.revokeToken(viaRevoke.token);
    const viaReplay = await grant(store);
    store.revokeFromReplayedCode(store.findCode(viaReplay.code)!);
    const owner = { clientId: "c", login: "alice", keep: 1 };
    const replacedOne = await grant(store, {}, owner);
    const replacing = await grant(store, {}, owner);
    expect(replacing.replaced).toEqual([replacedOne.tokenId]);
    const viaAdmin = await grant(store);
    expect(admin.revoke([store.findToken(viaAdmin.token)!.grantId])).toEqual([viaAdmin.tokenId]);
    const rows = revocations.after(0);
    expect(rows.map((r) => r.tokenId)).toEqual([viaRevoke.tokenId, viaReplay.tokenId, replacedOne.tokenId, viaAdmin.tokenId]);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(revocations.latest()).toBe(4);
    expect(revocations.after(2).map((r) => r.seq)).toEqual([3, 4]);
    expect(revocations.after(0, 1)).toHaveLength(1);
  });

  test("rows go with the purge after a day; seqs never go back", async () => {
    const { store, clock, revocations } = setup();
    store.revokeToken((await grant(store)).token);
    clock.advance(REVOCATION_RETENTION_MS + 1);
    store.purgeExpired();
    expect(revocations.after(0)).toEqual([]);
    store.revokeToken((await grant(store)).token);
    expect(revocations.after(0).map((r) => r.seq)).toEqual([2]);
  });

  test("the poll is one search of the primary key", () => {
    const { db } = setup();
    const plan = db.query<{ detail: string }, [number]>("EXPLAIN QUERY PLAN SELECT seq, token_id FROM revocations WHERE seq > ? ORDER BY seq LIMIT 500").all(0);
    expect(plan.map((p) => p.detail).join(";")).toMatch(/SEARCH revocations USING INTEGER PRIMARY KEY \(rowid>\?\)/);
  });
});

describe("GrantAdmin", () => {
  test("lists live grants newest first with client, redirect, scope, times and the sealed label", async () => {
    const { db, store, admin, clock } = setup();
    const a = await grant(store, { clientId: "client-a", label });
    clock.advance(1000);
    const b = await grant(store, { clientId: "client-a", scope: "email:read" });
    store.revokeToken((await grant(store, { label })).token); // revoked: not listed
    const list = await admin.list();
    expect(list.map((g) => g.id)).toEqual([store.findToken(b.token)!.grantId, store.findToken(a.token)!.grantId]);
    expect(list[1]).toMatchObject({ clientId: "client-a", redirectUri: "https://claude.ai/api/mcp/auth_callback", scope: "email:read email:write", lastUsedAt: null, label });
    expect(list[0]).toMatchObject({ scope: "email:read", label: null });
    expect(list[1]!.expiresAt).toBe(list[1]!.createdAt + 30 * DAY);
    store.touchGrant(list[1]!.id);
    expect((await admin.list())[1]!.lastUsedAt).toBe(clock());
    // The database alone names no mailbox: the label is sealed under a key derived from the master key.
    expect(JSON.stringify(db.query("SELECT * FROM grants").all())).not.toContain("alice");
    expect((await new GrantAdmin(db, new Uint8Array(32).fill(6), clock).list())[1]!.label).toBeNull();
  });

  test("expired tokens are not live grants", async () => {
    const { store, admin, clock } = setup();
    await grant(store);
    clock.advance(30 * DAY);
    expect(await admin.list()).toEqual([]);
  });
});
