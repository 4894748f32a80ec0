// Session rows (src/store/mcp-sessions.ts): hashed ids, least-recently-used eviction per token and
// overall, idle deletion, and the cascade that ends a token's sessions when its grant goes.
import { describe, expect, test } from "bun:test";
import { openDatabase } from "../../src/store/db.ts";
import { GrantStore } from "../../src/store/grants.ts";
import { SessionRows, sessionKey } from "../../src/store/mcp-sessions.ts";
import { manualClock } from "../../src/clock.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { USERS } from "../support/dovecot.ts";

async function setup() {
  const db = openDatabase(":memory:");
  const grants = new GrantStore(db, new Uint8Array(32).fill(7), manualClock(Date.now()));
  const account = testAccount(USERS.alice, { host: "localhost", port: 1 });
  const a = await issueTestGrant({ grants }, account);
  const b = await issueTestGrant({ grants }, account);
  return { db, grants, rows: new SessionRows(db), a, b };
}

describe("session rows", () => {
  test("the key is the id's SHA-256, never the id", async () => {
    const { db, rows, a } = await setup();
    rows.insert(sessionKey("the-session-id"), a.tokenId, "{}", 1);
    expect(sessionKey("the-session-id")).toMatch(/^[0-9a-f]{64}$/);
    const all = db.query<{ id_hash: string }, []>("SELECT id_hash FROM mcp_sessions").all();
    expect(all).toEqual([{ id_hash: sessionKey("the-session-id") }]);
    expect(rows.find(sessionKey("the-session-id"))).toEqual({ tokenId: a.tokenId, lastSeen: 1 });
    expect(rows.find(sessionKey("other"))).toBeNull();
  });

  test("evict: the token's least recently used beyond its cap, then anyone's beyond the total", async () => {
    const { rows, a, b } = await setup();
    rows.insert("a1", a.tokenId, "{}", 10);
    rows.insert("a2", a.tokenId, "{}", 20);
    rows.insert("b1", b.tokenId, "{}", 5);
    rows.insert("a3", a.tokenId, "{}", 30);
    rows.touch("a1", 40); // a1 is now a's most recent
    expect(rows.evict(a.tokenId, 2, 10)).toEqual(["a2"]);
    expect(rows.countFor(a.tokenId)).toBe(2);
    expect(rows.evict(a.tokenId, 2, 2)).toEqual(["b1"]); // the oldest of anyone
    expect(rows.count()).toBe(2);
  });

  test("deleteIdle and existing", async () => {
    const { rows, a } = await setup();
    rows.insert("old", a.tokenId, "{}", 100);
    rows.insert("new", a.tokenId, "{}", 200);
    expect(rows.deleteIdle(150)).toEqual(["old"]);
    expect([...rows.existing(["old", "new", "never"])]).toEqual(["new"]);
    expect(rows.existing([]).size).toBe(0);
  });

  test("revoking the token (its grant goes) deletes its sessions; other tokens' stay", async () => {
    const { grants, rows, a, b } = await setup();
    rows.insert("a1", a.tokenId, "{}", 1);
    rows.insert("b1", b.tokenId, "{}", 1);
    grants.revokeToken(a.token);
    expect(rows.find("a1")).toBeNull();
    expect(rows.find("b1")).not.toBeNull();
  });

  test("a session cannot be recorded for a token the store does not have", async () => {
    const { rows } = await setup();
    expect(() => rows.insert("x", "f".repeat(64), "{}", 1)).toThrow();
  });
});
