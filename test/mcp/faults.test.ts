// Mail-server faults through MCP, against the scripted fake IMAP server: each is a clear
// isError result, nothing hangs past the configured timeouts, and the next call is answered.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { USERS } from "../support/dovecot.ts";
import { startFakeImap, type FakeImap } from "../support/fake-imap.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { connectV2, MODERN } from "../support/mcp-client-v2.ts";
import { issueTestToken, testAccount } from "../support/token.ts";
import { until } from "../support/until.ts";
import { watchTree } from "../support/process-tree.ts";

let srv: TestServer;
let fake: FakeImap;

beforeAll(async () => {
  fake = await startFakeImap();
  srv = await startTestServer({ pool: { connectTimeoutMs: 500, opTimeoutMs: 800 } });
});
afterAll(async () => {
  await srv.stop();
  await fake.stop();
});

/** A fresh token (so a fresh pooled connection) and client against the fake server. */
async function newClient(): Promise<Client> {
  const token = await issueTestToken(srv.deps, testAccount(USERS.alice, fake));
  return connectClient(srv.mcpUrl, token);
}

const recent = (c: Client) => call(c, "get_recent_emails", { folder: "INBOX", limit: 2 });

/** Waits until the fake server has received one more FETCH than `before`: the call is now stuck there. */
const fetchArrived = (before: number) =>
  until(() => (fake.received.FETCH ?? 0) > before, { what: "the tool's FETCH to reach the fake server" });

describe("mail-server faults", () => {
  test("a healthy fake answers", async () => {
    fake.script = () => ({});
    const page = await callOk(await newClient(), "get_recent_emails", { limit: 2 });
    expect(page.emails.map((e: { uid: number }) => e.uid)).toEqual([3, 2]);
    expect(page.next_before_uid).toBe(2);
  });

  test("login refused: isError telling the user to reconnect the mailbox", async () => {
    fake.script = () => ({ login: "refuse" });
    const client = await newClient();
    const res = await recent(client);
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/rejected the stored password.*reconnect the mailbox/);
    fake.script = () => ({});
    expect((await recent(client)).isError).toBeFalsy(); // the same session recovers
  });

  test("a server that never greets: timeout error within the connect timeout", async () => {
    fake.script = () => ({ greet: false });
    const client = await newClient();
    const t0 = performance.now();
    const res = await recent(client);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/did not answer within/);
  });

  test("a login that never completes: timeout error", async () => {
    fake.script = () => ({ login: "hang" });
    const res = await recent(await newClient());
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/did not answer/);
  });

  test("a FETCH that never answers: timeout error, then the next call works", async () => {
    fake.script = () => ({ fetch: "hang" });
    const client = await newClient();
    const t0 = performance.now();
    const res = await recent(client);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/did not answer within 1 s/);
    fake.script = () => ({});
    expect((await recent(client)).isError).toBeFalsy();
  });

  test("the connection dropped mid-FETCH: isError saying so, then the next call works", async () => {
    fake.script = () => ({ fetch: "drop" });
    const client = await newClient();
    const res = await recent(client);
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/connection to the mail server .* was lost/);
    fake.script = () => ({});
    expect((await recent(client)).isError).toBeFalsy();
  });

  test("a pooled connection that drops under a command is reopened once, transparently", async () => {
    const client = await newClient();
    const first = fake.connections + 1;
    fake.script = (n) => (n === first ? { fetch: "ok-then-drop" } : {});
    expect((await recent(client)).isError).toBeFalsy();
    const res = await recent(client); // the reused connection drops mid-FETCH; one retry on a new one
    expect(res.isError).toBeFalsy();
    expect(fake.connections).toBe(first + 1);
  });

  test("a pooled connection the server closed while idle is reopened on the next call", async () => {
    fake.script = () => ({});
    const client = await newClient();
    expect((await recent(client)).isError).toBeFalsy();
    const before = fake.connections;
    fake.dropAll();
    // Every pooled connection of this server was to the fake: all are seen closed, none in use.
    await until(() => srv.deps.imap.openCount === 0, { what: "the pool to see its idle connections closed by the server" });
    expect((await recent(client)).isError).toBeFalsy();
    expect(fake.connections).toBe(before + 1);
  });

  test("an unreachable server: isError, nothing crashes", async () => {
    const token = await issueTestToken(srv.deps, testAccount(USERS.alice, { host: "127.0.0.1", port: 1 }));
    const res = await recent(await connectClient(srv.mcpUrl, token));
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/lost or refused/);
  });
});

describe("revocation during a call", () => {
  test("a call stalled on the mail server is answered with a JSON-RPC error within a second, then the session is gone", async () => {
    const slow = await startTestServer({ pool: { opTimeoutMs: 30_000 } }); // the stall outlasts the test unless revocation ends it
    try {
      fake.script = () => ({ fetch: "hang" });
      const token = await issueTestToken(slow.deps, testAccount(USERS.alice, fake));
      const client = await connectClient(slow.mcpUrl, token);
      const fetches = fake.received.FETCH ?? 0;
      const pending = recent(client).then(() => "answered", (err: Error) => err);
      await fetchArrived(fetches); // the FETCH is now stuck at the fake server
      const t0 = performance.now();
      const revoked = await fetch(`${slow.baseUrl}/oauth/revoke`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) });
      expect(revoked.status).toBe(200);
      const outcome = await pending;
      expect(performance.now() - t0).toBeLessThan(1000);
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error).message).toMatch(/-32001.*revoked while this call ran/);
      await expect(recent(client)).rejects.toThrow(); // 401 now: the token and its session are gone
    } finally {
      fake.script = () => ({});
      await slow.stop();
    }
  });

  test("2026-07-28 era: a stalled call without a session is answered with a JSON-RPC error at once too", async () => {
    const slow = await startTestServer({ pool: { opTimeoutMs: 30_000 } });
    try {
      fake.script = () => ({ fetch: "hang" });
      const token = await issueTestToken(slow.deps, testAccount(USERS.alice, fake));
      const client = await connectV2(slow.mcpUrl, token, { pin: MODERN });
      const fetches = fake.received.FETCH ?? 0;
      const pending = client.callTool({ name: "get_recent_emails", arguments: { limit: 2 } }).then(() => "answered", (err: Error) => err);
      await fetchArrived(fetches);
      const t0 = performance.now();
      await fetch(`${slow.baseUrl}/oauth/revoke`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) });
      const outcome = await pending;
      expect(performance.now() - t0).toBeLessThan(1000);
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error).message).toMatch(/revoked while this call ran/);
      expect((outcome as Error & { code?: number }).code).toBe(-32001);
      await client.close();
    } finally {
      fake.script = () => ({});
      await slow.stop();
    }
  });
});

describe("a hostile mail server", () => {
  test("a 50 MB subject: a clear error, memory bounded, the next call and other tokens unaffected", async () => {
    const bystander = await newClient(); // another token on the same server, connected before
    expect((await recent(bystander)).isError).toBeFalsy();
    const client = await newClient();
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    fake.script = () => ({ fetch: "huge-subject" });
    const res = await recent(client);
    const grown = process.memoryUsage().rss - before;
    fake.script = () => ({});
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/sent a response larger than this server accepts \(at most 20 MB\)/);
    expect(grown).toBeLessThan(60 * 1024 * 1024); // unbounded, it held the 50 MB subject several times over
    expect((await recent(client)).isError).toBeFalsy();
    expect((await recent(bystander)).isError).toBeFalsy();
  });
});

describe("a hostile mail server, each response within the limits, their sum not", () => {
  test("40 messages with 19 MB subjects in one FETCH: stopped at 64 MB, said so, the server grows < 300 MB", async () => {
    const roomy = await startTestServer({ pool: { opTimeoutMs: 30_000 } }); // sending 760 MB takes seconds
    const client = await connectClient(roomy.mcpUrl, await issueTestToken(roomy.deps, testAccount(USERS.alice, fake)));
    fake.script = () => ({ fetch: "huge-subject", hugeBytes: 19 * 1024 * 1024, hugeCount: 40 }); // read when the call connects
    Bun.gc(true);
    const watch = watchTree(process.pid);
    const before = watch.peak;
    try {
      const res = await call(client, "get_recent_emails", { folder: "INBOX", limit: 40 });
      const grown = watch.stop() - before;
      console.log(`40 × 19 MB subjects: the server grew by at most ${Math.round(grown / 1024 / 1024)} MB`);
      expect(textOf(res)).toMatch(/sent more than 64 MB in answer to one request/);
      expect(grown).toBeLessThan(300 * 1024 * 1024); // unbounded, 787 MB (issue 19, item 4)
      fake.script = () => ({});
      expect((await recent(client)).isError).toBeFalsy();
    } finally {
      fake.script = () => ({});
      await roomy.stop();
    }
  }, 60_000);
});

describe("a hostile mail server, within the response limits", () => {
  test("a 10 MB subject reaches the model cut to a few KB", async () => {
    fake.script = () => ({ fetch: "huge-subject", hugeBytes: 10 * 1024 * 1024 });
    try {
      const res = await recent(await newClient());
      expect(res.isError).toBeFalsy();
      const subject = (res.structuredContent as { emails: Array<{ subject: string }> }).emails[0]!.subject;
      expect(subject.length).toBeLessThanOrEqual(2000);
      expect(subject.endsWith("…")).toBe(true);
      expect(JSON.stringify(res).length).toBeLessThan(50_000);
    } finally {
      fake.script = () => ({});
    }
  });
});
