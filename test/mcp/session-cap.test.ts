// The server-wide session cap (src/mcp/transport/sessions.ts), lowered to 4 so the test needs no 1,000
// sessions: past it the least recently used session of any token is closed and answers 404.
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
  test("the default cap is 1,000 sessions", () => {
    expect(SESSION_LIMITS.maxSessions).toBe(1_000);
  });

  test("past the cap the least recently used session of any token is closed, answers 404, and ends its stream", async () => {
    const a = await issueTestGrant(srv.deps, testAccount(USERS.alice, nowhere));
    const b = await issueTestGrant(srv.deps, testAccount(USERS.bob, nowhere));
    const a1 = await openSession(a.token);
    const b1 = await openSession(b.token);
    const a2 = await openSession(a.token);
    const b2 = await openSession(b.token);
    expect((await srv.deps.sessions.size())).toBe(CAP);
    const stream = await fetch(srv.mcpUrl, { headers: { authorization: `Bearer ${b.token}`, accept: ACCEPT, "mcp-session-id": b1 } });
    expect(stream.status).toBe(200);
    const ended = stream.text();
    // Every other session is used after b1's stream opened: b1 is now the least recently used.
    // (Last activity is kept to the second in the store: src/mcp/transport/sessions.ts.)
    srv.deps.clock.advance(1000);
    for (const [token, id] of [[a.token, a1], [a.token, a2], [b.token, b2]] as const) expect(await status(token, id)).toBe(200);

    const c = await issueTestGrant(srv.deps, testAccount(USERS.alice, nowhere));
    const c1 = await openSession(c.token); // one over the cap: b1 goes
    expect((await srv.deps.sessions.size())).toBe(CAP);
    expect(await status(b.token, b1)).toBe(404);
    await ended; // its SSE stream closes, as for a revoked token
    for (const [token, id] of [[a.token, a1], [b.token, b2], [a.token, a2], [c.token, c1]] as const) {
      expect(await status(token, id)).toBe(200);
    }
    await Promise.all([a, b, c].map((g) => srv.deps.sessions.closeToken(g.tokenId)));
  });

  test("an SDK client whose session was evicted gets 404 and works again after reconnecting", async () => {
    const owner = await issueTestGrant(srv.deps, testAccount(USERS.alice, nowhere));
    const client = await connectClient(srv.mcpUrl, owner.token);
    expect((await callOk(client, "list_providers")).providers.length).toBeGreaterThan(5);
    const other = await issueTestGrant(srv.deps, testAccount(USERS.bob, nowhere));
    for (let i = 0; i < CAP; i++) await openSession(other.token); // pushes the client's session out
    expect((await srv.deps.sessions.countFor(owner.tokenId))).toBe(0);
    await expect(client.callTool({ name: "list_providers", arguments: {} })).rejects.toThrow(/404|Session not found/);
    await client.close();
    const again = await connectClient(srv.mcpUrl, owner.token);
    expect((await callOk(again, "list_providers")).providers.length).toBeGreaterThan(5);
    await again.close();
    await Promise.all([owner, other].map((g) => srv.deps.sessions.closeToken(g.tokenId)));
  });
});
