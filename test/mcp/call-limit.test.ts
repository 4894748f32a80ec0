// Concurrent tool calls per token (src/mcp/token-caps/call-limit.ts), through the real server and the SDK
// client. The scripted fake IMAP server never answers FETCH, so calls stay running until the test
// drops its connections; the limits are lowered to 2 running + 1 waiting.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CALL_LIMITS, ToolCallLimiter } from "../../src/mcp/token-caps/call-limit.ts";
import { USERS } from "../support/dovecot.ts";
import { startFakeImap, type FakeImap } from "../support/fake-imap.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { connectV2, MODERN } from "../support/mcp-client-v2.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { until } from "../support/until.ts";

let srv: TestServer;
let fake: FakeImap;

beforeAll(async () => {
  fake = await startFakeImap();
  // A long operation timeout: the hung FETCHes must outlive the test's checks, not time out.
  srv = await startTestServer({ pool: { opTimeoutMs: 20_000 }, limits: { calls: { maxRunning: 2, maxWaiting: 1 } } });
});
afterAll(async () => {
  await srv.stop();
  await fake.stop();
});

const recent = (c: Client, signal?: AbortSignal) =>
  c.callTool({ name: "get_recent_emails", arguments: { limit: 2 } }, undefined, { signal });

async function newGrant(): Promise<{ client: Client; tokenId: string }> {
  const grant = await issueTestGrant(srv.deps, testAccount(USERS.alice, fake));
  return { client: await connectClient(srv.mcpUrl, grant.token), tokenId: grant.tokenId };
}

describe("concurrent tool calls per token", () => {
  test("the defaults: 4 running, 8 waiting", () => {
    expect(CALL_LIMITS).toEqual({ maxRunning: 4, maxWaiting: 8 });
  });

  test("past running + waiting a call is a clear busy error at once; other tokens are unaffected; the queue drains", async () => {
    fake.script = () => ({ fetch: "hang" });
    const { client, tokenId } = await newGrant();
    const load = () => srv.deps.calls.load(tokenId);
    // Two sessions of the same token share its slots.
    const second = await connectClient(srv.mcpUrl, (await issueTestGrant(srv.deps, testAccount(USERS.alice, fake))).token);
    const first = [recent(client), recent(client), recent(client)];
    await until(() => load().running === 2 && load().waiting === 1, { what: "2 running, 1 waiting" });

    const busy = await call(client, "list_providers");
    expect(busy.isError).toBe(true);
    expect(textOf(busy)).toMatch(/Too many tool calls at once on this connection: 2 are running and 1 waiting/);
    expect((await callOk(second, "list_providers")).providers.length).toBeGreaterThan(5); // another token

    fake.script = () => ({}); // the pool reconnects to a healthy server once the hung one drops
    fake.dropAll();
    const results = await Promise.all(first);
    expect(results).toHaveLength(3);
    await until(() => load().running === 0 && load().waiting === 0, { what: "all slots free" });
    expect((await callOk(client, "get_recent_emails", { limit: 2 })).emails).toHaveLength(2);
    await Promise.all([client.close(), second.close()]);
  });

  test("a waiting call cancelled by the client leaves the queue and never runs", async () => {
    fake.script = () => ({ fetch: "hang" });
    const { client, tokenId } = await newGrant();
    const load = () => srv.deps.calls.load(tokenId);
    const running = [recent(client), recent(client)];
    await until(() => load().running === 2, { what: "2 running" });
    const abort = new AbortController();
    const waiting = recent(client, abort.signal);
    await until(() => load().waiting === 1, { what: "1 waiting" });
    abort.abort(new Error("user cancelled"));
    await expect(waiting).rejects.toThrow(/cancelled/);
    await until(() => load().waiting === 0, { what: "the cancel to reach the server" });
    expect(load().running).toBe(2);
    // Its queue place is free again: a new call waits instead of being refused.
    const next = recent(client);
    await until(() => load().waiting === 1, { what: "the new call to wait" });
    fake.script = () => ({});
    fake.dropAll();
    await Promise.all([...running, next]);
    await until(() => load().running === 0 && load().waiting === 0, { what: "all slots free" });
    await client.close();
  });
});

describe("the message resource shares the token's slots", () => {
  test("past them its read is refused as busy, in words, and not logged as a failure", async () => {
    fake.script = () => ({ fetch: "hang" });
    const { client, tokenId } = await newGrant();
    const load = () => srv.deps.calls.load(tokenId);
    const first = [recent(client), recent(client), recent(client)];
    await until(() => load().running === 2 && load().waiting === 1, { what: "2 running, 1 waiting" });
    // Before: "Reading the message failed with an internal error", and an error line in the log.
    await expect(client.readResource({ uri: "mailbox://message/INBOX/1" }))
      .rejects.toThrow(/Too many tool calls at once on this connection: 2 are running and 1 waiting/);
    expect(srv.deps.log.lines.filter((l) => l.includes("resource read failed"))).toEqual([]);
    fake.script = () => ({});
    fake.dropAll();
    expect(await Promise.all(first)).toHaveLength(3);
    await until(() => load().running === 0 && load().waiting === 0, { what: "all slots free" });
    await client.close();
  });
});

describe("concurrent tool calls per token, 2026-07-28 era", () => {
  test("calls without a session share the token's slots with its sessions; past them, busy at once", async () => {
    fake.script = () => ({ fetch: "hang" });
    const grant = await issueTestGrant(srv.deps, testAccount(USERS.alice, fake));
    const load = () => srv.deps.calls.load(grant.tokenId);
    const modern = await connectV2(srv.mcpUrl, grant.token, { pin: MODERN });
    const legacy = await connectClient(srv.mcpUrl, grant.token);
    const first = [
      modern.callTool({ name: "get_recent_emails", arguments: { limit: 2 } }),
      recent(legacy),
      modern.callTool({ name: "get_recent_emails", arguments: { limit: 2 } }),
    ];
    await until(() => load().running === 2 && load().waiting === 1, { what: "2 running, 1 waiting" });
    const busy = (await modern.callTool({ name: "list_providers", arguments: {} })) as { isError?: boolean; content: Array<{ type: string; text?: string }> };
    expect(busy.isError).toBe(true);
    expect(textOf(busy)).toMatch(/Too many tool calls at once on this connection: 2 are running and 1 waiting/);
    fake.script = () => ({});
    fake.dropAll();
    expect(await Promise.all(first)).toHaveLength(3);
    await until(() => load().running === 0 && load().waiting === 0, { what: "all slots free" });
    await Promise.all([modern.close(), legacy.close()]);
  });
});

describe("ToolCallLimiter", () => {
  const never = new AbortController().signal;

  test("a slot is released when the call throws, and waiters run in arrival order", async () => {
    const limiter = new ToolCallLimiter({ maxRunning: 1, maxWaiting: 2 });
    const order: string[] = [];
    let fail!: (e: Error) => void;
    const a = limiter.run("t", never, () => new Promise<void>((_, reject) => (fail = reject)));
    const b = limiter.run("t", never, async () => void order.push("b"));
    const c = limiter.run("t", never, async () => void order.push("c"));
    expect(limiter.load("t")).toEqual({ running: 1, waiting: 2 });
    await until(() => fail !== undefined, { what: "the first call to start" }); // run() starts fn after its own await
    fail(new Error("boom"));
    await expect(a).rejects.toThrow("boom");
    await Promise.all([b, c]);
    expect(order).toEqual(["b", "c"]);
    expect(limiter.load("t")).toEqual({ running: 0, waiting: 0 });
  });
});
