// The revocation signal and the owner's view of grants in the store: every way a token dies leaves a
// row with a growing seq; labels are sealed; GrantAdmin lists live grants and revokes them. On both backends.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { hashSecret } from "../../src/store/crypto.ts";
import type { Db } from "../../src/store/db.ts";
import { GrantAdmin } from "../../src/store/grant-admin.ts";
import { GrantStore, type GrantInfo, type GrantOwner } from "../../src/store/grants.ts";
import { PendingStore } from "../../src/store/pending.ts";
import { REVOCATION_RETENTION_MS, Revocations } from "../../src/store/revocations.ts";
import { migrate } from "../../src/store/schema.ts";
import { BACKENDS, closeStoresAfterEach } from "../support/stores.ts";

const master = new Uint8Array(32).fill(5);
const DAY = 86_400_000;
let n = 0;

closeStoresAfterEach();

function over(db: Db) {
  const clock = manualClock();
  return {
    db, clock, store: new GrantStore(db, master, clock), pending: new PendingStore(db, clock),
    admin: new GrantAdmin(db, master, clock), revocations: new Revocations(db),
  };
}

type Setup = ReturnType<typeof over>;

async function grant({ store, pending }: Setup, info: GrantInfo = {}, owner: GrantOwner | null = null) {
  const { requestId } = await pending.create({ redirectUri: "https://claude.ai/api/mcp/auth_callback", codeChallenge: "c".repeat(43), state: "s", resource: null }, 60_000);
  const code = `code-${++n}-`.padEnd(48, "x");
  const replaced = await store.issueCode(code, (await pending.get(requestId))!, new TextEncoder().encode("{}"), 60_000, owner, info);
  const token = `token-${n}-`.padEnd(64, "y");
  await store.redeemCode(code, (await store.findCode(code))!, token, "email:read email:write", 30 * DAY);
  return { code, token, tokenId: hashSecret(token), replaced };
}

/**
 * How the store runs Revocations.after's poll, one line per step. On Postgres the planner is told to
 * avoid a sequential or bitmap scan (and a sort after it), which it picks for a table this small and
 * without statistics, so that the plan shows whether the primary key's index serves the poll in order.
 */
async function pollPlan(db: Db): Promise<string> {
  if (db.dialect === "sqlite") {
    const plan = await db.q<{ detail: string }>`EXPLAIN QUERY PLAN SELECT seq, token_id FROM revocations WHERE seq > ${0} ORDER BY seq LIMIT 500`;
    return plan.map((p) => p.detail).join(";");
  }
  return db.tx(async (tx) => {
    await tx`SET LOCAL enable_seqscan = off`;
    await tx`SET LOCAL enable_bitmapscan = off`;
    const plan = await tx<{ "QUERY PLAN": string }[]>`EXPLAIN (COSTS OFF) SELECT seq, token_id FROM revocations WHERE seq > ${0} ORDER BY seq LIMIT 500`;
    return plan.map((p) => p["QUERY PLAN"].trim()).join(";");
  });
}

const label = { email: "alice@example.test", host: "imap.example.test" };

for (const backend of BACKENDS) {
  const setup = async () => over(await backend.open());
  /** A store of its own, so seqs start at 1 (emptying a reused Postgres store does not reset its identity). */
  const fresh = async () => {
    const db = await backend.create();
    await migrate(db);
    return over(db);
  };

  describe(`revocation signal on ${backend.name}`, () => {
    test("every way a token dies appends its id with a growing seq", async () => {
      const s = await fresh();
      const { store, admin, revocations } = s;
      expect(await revocations.latest()).toBe(0);
      const viaRevoke = await grant(s);
      await store.revokeToken(viaRevoke.token);
      const viaReplay = await grant(s);
      await store.revokeFromReplayedCode((await store.findCode(viaReplay.code))!);
      const owner = { clientId: "c", login: "alice", keep: 1 };
      const replacedOne = await grant(s, {}, owner);
      const replacing = await grant(s, {}, owner);
      expect(replacing.replaced).toEqual([replacedOne.tokenId]);
      const viaAdmin = await grant(s);
      expect(await admin.revoke([(await store.findToken(viaAdmin.token))!.grantId])).toEqual([viaAdmin.tokenId]);
      const rows = await revocations.after(0);
      expect(rows.map((r) => r.tokenId)).toEqual([viaRevoke.tokenId, viaReplay.tokenId, replacedOne.tokenId, viaAdmin.tokenId]);
      expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
      expect(await revocations.latest()).toBe(4);
      expect((await revocations.after(2)).map((r) => r.seq)).toEqual([3, 4]);
      expect(await revocations.after(0, 1)).toHaveLength(1);
    });

    test("rows go with the purge after a day; seqs never go back", async () => {
      const s = await fresh();
      const { store, clock, revocations } = s;
      await store.revokeToken((await grant(s)).token);
      clock.advance(REVOCATION_RETENTION_MS + 1);
      await store.purgeExpired();
      expect(await revocations.after(0)).toEqual([]);
      await store.revokeToken((await grant(s)).token);
      expect((await revocations.after(0)).map((r) => r.seq)).toEqual([2]);
    });

    test("the poll is one search of the primary key", async () => {
      const { db } = await setup();
      expect(await pollPlan(db)).toMatch(db.dialect === "sqlite"
        ? /SEARCH revocations USING INTEGER PRIMARY KEY \(rowid>\?\)/
        : /^Limit;\s*->\s+Index Scan using revocations_pkey on revocations;\s*Index Cond: \(seq > /);
    });
  });

  describe(`GrantAdmin on ${backend.name}`, () => {
    test("lists live grants newest first with client, redirect, scope, times and the sealed label", async () => {
      const s = await setup();
      const { db, store, admin, clock } = s;
      const a = await grant(s, { clientId: "client-a", label });
      clock.advance(1000);
      const b = await grant(s, { clientId: "client-a", scope: "email:read" });
      await store.revokeToken((await grant(s, { label })).token); // revoked: not listed
      const list = await admin.list();
      expect(list.map((g) => g.id)).toEqual([(await store.findToken(b.token))!.grantId, (await store.findToken(a.token))!.grantId]);
      expect(list[1]).toMatchObject({ clientId: "client-a", redirectUri: "https://claude.ai/api/mcp/auth_callback", scope: "email:read email:write", lastUsedAt: null, label });
      expect(list[0]).toMatchObject({ scope: "email:read", label: null });
      expect(list[1]!.expiresAt).toBe(list[1]!.createdAt + 30 * DAY);
      await store.touchGrant(list[1]!.id);
      expect((await admin.list())[1]!.lastUsedAt).toBe(clock());
      // The database alone names no mailbox: the label is sealed under a key derived from the master key.
      const rows = [...(await db.q`SELECT * FROM grants`)];
      expect(rows).toHaveLength(2);
      expect(JSON.stringify(rows)).not.toContain("alice");
      expect((await new GrantAdmin(db, new Uint8Array(32).fill(6), clock).list())[1]!.label).toBeNull();
    });

    test("expired tokens are not live grants", async () => {
      const s = await setup();
      await grant(s);
      s.clock.advance(30 * DAY);
      expect(await s.admin.list()).toEqual([]);
    });
  });
}
