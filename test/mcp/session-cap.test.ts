// The server-wide session cap (src/mcp/transport/sessions.ts), lowered to 4 so the test needs no 1,000
// sessions (issue 19, item 5: at the cap the least recently used session of *any* token was closed, so
// ten tokens opening 1,000 sessions ended another person's stream). Now each owner (the mailbox behind
// a grant) gives up its own sessions first, and room for a newcomer comes from the owner holding most.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { SESSION_LIMITS } from "../../src/mcp/transport/sessions.ts";
import { USERS } from "../support/dovecot.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";

const CAP = 4;
let srv: TestServer;
const nowhere = { host: "localhost", port: 1 }; // no IMAP is touched here

beforeAll(async () => {
  srv = await startTestServer({ limits: { sessions: { maxSessions: CAP } } });
});
afterAll(() => srv.stop());

const ACCEPT = "application/json, text/event-stream";

function post(token: string, body: unknown, sessionId?: string): Promise<Response> {
  return fetch(srv.mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json", accept: ACCEPT, authorization: `Bearer ${token}`,
      ...(sessionId ? { "mcp-session-id": sessionId } : {}),
    },
    body: JSON.stringify(body),
  });
}

async function openSession(token: string): Promise<string> {
  const res = await post(token, {
    jsonrpc: "2.0", id: 1, method: "initialize",
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get("mcp-session-id")!;
}

async function status(token: string, sessionId: string): Promise<number> {
  const res = await post(token, { jsonrpc: "2.0", id: 2, method: "ping" }, sessionId);
  await res.text();
  return res.status;
}

describe("server-wide session cap", () => {
  test("the default caps: 1,000 in all, 200 per registered client, 100 per token", () => {
    expect(SESSION_LIMITS).toMatchObject({ maxSessions: 1_000, maxPerClient: 200, maxPerToken: 100 });
  });

  test("the attack: one owner's many tokens filling the cap cannot end another person's session or stream", async () => {
    const bob = await issueTestGrant(srv.deps, testAccount(USERS.bob, nowhere), undefined, { login: "bob" });
    const b1 = await openSession(bob.token);
    const stream = await fetch(srv.mcpUrl, { headers: { authorization: `Bearer ${bob.token}`, accept: ACCEPT, "mcp-session-id": b1 } });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.text().finally(() => { ended = true; });
    srv.deps.clock.advance(1000); // Bob's session is now older than all of Mallory's

    // Mallory: three tokens of one mailbox, opening far more sessions than the cap, again and again.
    const mallory = await Promise.all([1, 2, 3].map(() => issueTestGrant(srv.deps, testAccount(USERS.alice, nowhere), undefined, { login: "mallory" })));
    const theirs: Array<[string, string]> = [];
    for (let i = 0; i < 3 * CAP; i++) {
      const m = mallory[i % 3]!;
      theirs.push([m.token, await openSession(m.token)]);
    }
    expect(await srv.deps.sessions.size()).toBe(CAP);
    expect(await status(bob.token, b1)).toBe(200); // before: 404, Bob's stream ended
    expect(ended).toBe(false);
    // Mallory kept her newest sessions only: she hit the cap herself.
    const live = await Promise.all(theirs.map(([t, id]) => status(t, id)));
    expect(live.slice(-(CAP - 1))).toEqual(Array(CAP - 1).fill(200));
    expect(live.slice(0, -(CAP - 1))).toEqual(Array(theirs.length - (CAP - 1)).fill(404));

    // A newcomer holding nothing gets room, from the owner holding the most (Mallory), not from Bob.
    const carol = await issueTestGrant(srv.deps, testAccount(USERS.alice, nowhere), undefined, { login: "carol" });
    const c1 = await openSession(carol.token);
    expect(await status(carol.token, c1)).toBe(200);
    expect(await status(bob.token, b1)).toBe(200);
    expect(ended).toBe(false);
    await Promise.all([bob, carol, ...mallory].map((g) => srv.deps.sessions.closeToken(g.tokenId)));
  });

  test("when every owner holds one session, a newcomer is refused with 503 and nobody is pushed out", async () => {
    const owners = await Promise.all(Array.from({ length: CAP }, (_, i) =>
      issueTestGrant(srv.deps, testAccount(USERS.alice, nowhere), undefined, { login: `owner-${i}` })));
    const ids = [];
    for (const o of owners) ids.push(await openSession(o.token));
    const late = await issueTestGrant(srv.deps, testAccount(USERS.bob, nowhere), undefined, { login: "late" });
    const refused = await post(late.token, {
      jsonrpc: "2.0", id: 1, method: "initialize",
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect((await refused.json()).error.message).toContain("try again later");
    expect(await srv.deps.sessions.countFor(late.tokenId)).toBe(0);
    for (const [i, o] of owners.entries()) expect(await status(o.token, ids[i]!)).toBe(200);
    await Promise.all([late, ...owners].map((g) => srv.deps.sessions.closeToken(g.tokenId)));
  });

  test("an SDK client whose session its own owner's newer ones pushed out gets 404 and works again after reconnecting", async () => {
    const owner = await issueTestGrant(srv.deps, testAccount(USERS.alice, nowhere), undefined, { login: "dana" });
    const client = await connectClient(srv.mcpUrl, owner.token);
    expect((await callOk(client, "list_providers")).providers.length).toBeGreaterThan(5);
    const other = await issueTestGrant(srv.deps, testAccount(USERS.alice, nowhere), undefined, { login: "dana" });
    for (let i = 0; i < CAP; i++) await openSession(other.token); // the same mailbox, another app: its own sessions give way
    expect((await srv.deps.sessions.countFor(owner.tokenId))).toBe(0);
    await expect(client.callTool({ name: "list_providers", arguments: {} })).rejects.toThrow(/404|Session not found/);
    await client.close();
    const again = await connectClient(srv.mcpUrl, owner.token);
    expect((await callOk(again, "list_providers")).providers.length).toBeGreaterThan(5);
    await again.close();
    await Promise.all([owner, other].map((g) => srv.deps.sessions.closeToken(g.tokenId)));
  });
});
