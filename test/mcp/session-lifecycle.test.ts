// /mcp session lifecycle over raw HTTP: statuses of docs/design.md §3, DELETE, expiry, ownership, revocation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { heapStats } from "bun:jsc";
import { SessionRows, sessionKey } from "../../src/store/mcp-sessions.ts";
import { USERS } from "../support/dovecot.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { until } from "../support/until.ts";

let srv: TestServer;
let alice: { token: string; tokenId: string };
let bob: { token: string; tokenId: string };

beforeAll(async () => {
  srv = await startTestServer();
  // No IMAP is touched here: the accounts point nowhere.
  alice = await issueTestGrant(srv.deps, testAccount(USERS.alice, { host: "localhost", port: 1 }));
  bob = await issueTestGrant(srv.deps, testAccount(USERS.bob, { host: "localhost", port: 1 }));
});
afterAll(() => srv.stop());

const ACCEPT = "application/json, text/event-stream";

function post(token: string | null, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(srv.mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: ACCEPT,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const initialize = (id = 1) => ({
  jsonrpc: "2.0", id, method: "initialize",
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});
const toolsList = (id = 2) => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} });

async function openSession(token: string): Promise<string> {
  const res = await post(token, initialize());
  expect(res.status).toBe(200);
  await res.text();
  const id = res.headers.get("mcp-session-id");
  expect(id).toBeTruthy();
  await (await post(token, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": id! })).text();
  return id!;
}

function sessionRequest(method: "GET" | "DELETE", token: string, sessionId: string): Promise<Response> {
  return fetch(srv.mcpUrl, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: ACCEPT, "mcp-session-id": sessionId },
  });
}

describe("/mcp statuses", () => {
  test("no token: 401 with a resource_metadata challenge", async () => {
    const res = await post(null, initialize());
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${srv.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
  });

  test("initialize answers with an Mcp-Session-Id, exposed to browsers", async () => {
    const res = await post(alice.token, initialize(), { origin: "https://claude.ai" });
    expect(res.status).toBe(200);
    await res.text();
    expect(res.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://claude.ai");
    expect(res.headers.get("access-control-expose-headers") ?? "").toMatch(/mcp-session-id/i);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  test("a request other than initialize without Mcp-Session-Id: 400", async () => {
    const res = await post(alice.token, toolsList());
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/Mcp-Session-Id/);
  });

  test("an unknown session id: 404", async () => {
    const res = await post(alice.token, toolsList(), { "mcp-session-id": crypto.randomUUID() });
    expect(res.status).toBe(404);
  });

  test("a foreign Origin: 403, checked before the token", async () => {
    expect((await post(alice.token, initialize(), { origin: "https://evil.example" })).status).toBe(403);
    expect((await post(null, initialize(), { origin: "https://evil.example" })).status).toBe(403);
  });

  test("auth is checked before the session: a bad token on a live session is 401", async () => {
    const id = await openSession(alice.token);
    const res = await post("f".repeat(64), toolsList(), { "mcp-session-id": id });
    expect(res.status).toBe(401);
  });

  test("a store that cannot record a new session: 500 without the store's words, and nothing kept", async () => {
    const rows = srv.deps.store.sessions;
    const insert = rows.insert;
    rows.insert = async () => { throw new Error("connection to the database lost (host db.internal:5432)"); };
    const before = srv.deps.sessions.cached;
    try {
      const res = await post(alice.token, initialize());
      const text = await res.text();
      // Before: 400 "Parse error" with the store's message in `data`.
      expect(res.status).toBe(500);
      expect(text).not.toContain("db.internal");
      expect(srv.deps.sessions.cached).toBe(before);
      expect(srv.deps.log.lines.some((l) => l.includes("db.internal"))).toBe(true); // logged for the operator
    } finally {
      rows.insert = insert;
    }
  });

  test("another token's session id: 404", async () => {
    const id = await openSession(alice.token);
    const res = await post(bob.token, toolsList(), { "mcp-session-id": id });
    expect(res.status).toBe(404);
    expect((await post(alice.token, toolsList(), { "mcp-session-id": id })).status).toBe(200);
  });

  test("any supported MCP-Protocol-Version is accepted on a session", async () => {
    const id = await openSession(alice.token);
    for (const v of ["2025-03-26", "2025-06-18", LATEST_PROTOCOL_VERSION]) {
      const res = await post(alice.token, toolsList(), { "mcp-session-id": id, "mcp-protocol-version": v });
      expect(res.status).toBe(200);
      await res.text();
    }
  });

  test("a body over 32 MB: 413", async () => {
    const id = await openSession(alice.token);
    const big = { ...toolsList(), params: { pad: "x".repeat(32 * 1024 * 1024) } };
    expect((await post(alice.token, big, { "mcp-session-id": id })).status).toBe(413);
  });
});

describe("/mcp lifecycle", () => {
  test("GET opens the SSE stream", async () => {
    const id = await openSession(alice.token);
    const res = await sessionRequest("GET", alice.token, id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    await res.body?.cancel();
    // The client hung up: the transport frees the stream, so a new GET is not a 409.
    let again!: Response;
    await until(async () => {
      again = await sessionRequest("GET", alice.token, id);
      if (again.status !== 409) return true;
      await again.body?.cancel();
      return false;
    }, { what: "the server to free the stream the client hung up on (GET still 409)" });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  test("DELETE closes the session; the id is then 404", async () => {
    const id = await openSession(alice.token);
    const before = (await srv.deps.sessions.size());
    expect((await sessionRequest("DELETE", alice.token, id)).status).toBe(200);
    expect((await srv.deps.sessions.size())).toBe(before - 1);
    expect((await post(alice.token, toolsList(), { "mcp-session-id": id })).status).toBe(404);
  });

  test("DELETE while the store fails: answered, logged, and the server keeps serving", async () => {
    const id = await openSession(alice.token);
    const rows = srv.deps.store.sessions;
    const remove = rows.delete;
    rows.delete = async () => { throw new Error("the store is unreachable"); };
    try {
      // Before: the rejection floated, and Bun ends a process on an unhandled rejection.
      expect((await sessionRequest("DELETE", alice.token, id)).status).toBe(200);
    } finally {
      rows.delete = remove;
    }
    expect(srv.deps.log.lines.some((l) => l.includes("mcp session delete failed") && l.includes("the store is unreachable"))).toBe(true);
    expect((await post(alice.token, initialize())).status).toBe(200);
  });

  test("30 minutes of inactivity expire a session (sweeper)", async () => {
    const id = await openSession(alice.token);
    srv.deps.clock.advance(29 * 60_000);
    expect((await post(alice.token, toolsList(), { "mcp-session-id": id })).status).toBe(200); // activity resets the timer
    srv.deps.clock.advance(31 * 60_000);
    await srv.deps.sessions.sweep();
    expect((await post(alice.token, toolsList(), { "mcp-session-id": id })).status).toBe(404);
  });

  test("an expired session is 404 even before the sweeper runs", async () => {
    const id = await openSession(alice.token);
    srv.deps.clock.advance(30 * 60_000);
    expect((await post(alice.token, toolsList(), { "mcp-session-id": id })).status).toBe(404);
  });

  test("a session ended elsewhere (its row gone) is let go here by the sweeper: its stream ends, then 404", async () => {
    const id = await openSession(alice.token);
    const sse = await sessionRequest("GET", alice.token, id);
    expect(sse.status).toBe(200);
    const ended = sse.text();
    new SessionRows(srv.deps.db).delete(sessionKey(id)); // as another instance on the same store would
    await srv.deps.sessions.sweep();
    await ended;
    expect((await post(alice.token, toolsList(), { "mcp-session-id": id })).status).toBe(404);
  });

  test("revoking the token closes its sessions and ends its SSE stream", async () => {
    const grant = await issueTestGrant(srv.deps, testAccount(USERS.alice, { host: "localhost", port: 1 }));
    const id = await openSession(grant.token);
    const sse = await sessionRequest("GET", grant.token, id);
    expect(sse.status).toBe(200);
    const ended = sse.text();
    await srv.deps.grants.revokeToken(grant.token);
    await srv.deps.events.emitRevoked(grant.tokenId);
    await ended; // the stream closes
    expect((await post(alice.token, toolsList(), { "mcp-session-id": id })).status).toBe(404);
    expect((await post(grant.token, toolsList(), { "mcp-session-id": id })).status).toBe(401);
  });
});

describe("/mcp resources", () => {
  test("one token holds at most 100 sessions; the least recently used goes first", async () => {
    const grant = await issueTestGrant(srv.deps, testAccount(USERS.alice, { host: "localhost", port: 1 }));
    const first = await openSession(grant.token);
    srv.deps.clock.advance(1000);
    const second = await openSession(grant.token);
    srv.deps.clock.advance(1000);
    for (let i = 0; i < 98; i++) await openSession(grant.token);
    srv.deps.clock.advance(1000);
    await post(grant.token, toolsList(), { "mcp-session-id": first }).then((r) => r.text()); // first is now the most recent
    await openSession(grant.token); // the 101st
    expect((await post(grant.token, toolsList(), { "mcp-session-id": second })).status).toBe(404);
    expect((await post(grant.token, toolsList(), { "mcp-session-id": first })).status).toBe(200);
    await srv.deps.sessions.closeToken(grant.tokenId);
  });

  // Guards against per-request retention in the transport (e.g. enableJsonResponse in SDK 1.32,
  // typescript-sdk#2559): answered requests must not stay reachable for the session's life.
  test("answered requests are not retained by a long-lived session", async () => {
    const id = await openSession(alice.token);
    const ping = async (n: number) => {
      for (let i = 0; i < n; i++) await (await post(alice.token, { jsonrpc: "2.0", id: 100 + i, method: "ping" }, { "mcp-session-id": id })).text();
    };
    await ping(50);
    Bun.gc(true);
    const before = heapStats().objectTypeCounts.Request ?? 0;
    await ping(300);
    Bun.gc(true);
    expect((heapStats().objectTypeCounts.Request ?? 0) - before).toBeLessThan(50);
  });
});
