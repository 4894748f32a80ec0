// Three instances on one Postgres behind haproxy in round robin, no affinity (docs/deploy.md): real
// server processes configured as an operator would, the harness Dovecot as the mail server. What
// must hold across instances today: the OAuth flow may land anywhere, a rate limit counts across all
// of them, and losing one instance (kill -9) fails only what was in flight on it and loses nothing
// stored. MAILBOX_MCP_TRUST_PROXY with X-Forwarded-For lets each test be its own client address.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { getHarness, type Harness } from "../support/harness.ts";
import { startHaproxy, type Haproxy } from "../support/haproxy.ts";
import { runCli, startInstance, type Instance } from "../support/instances.ts";
import { freshDatabaseUrl } from "../support/stores.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "../support/app.ts";
import { freePort } from "../support/ports.ts";
import {
  aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, tokenFields, type Handler,
} from "../oauth/flow.ts";

let h: Harness;
let lb: Haproxy;
let instances: Instance[];
let env: Record<string, string>;
let base: string;

beforeAll(async () => {
  h = await getHarness();
  const lbPort = await freePort();
  base = `http://localhost:${lbPort}`;
  env = {
    MAILBOX_MCP_DATABASE_URL: await freshDatabaseUrl("cluster"),
    MAILBOX_MCP_SECRET_KEY: randomBytes(32).toString("base64"),
    MAILBOX_MCP_CLIENT_ID: TEST_CLIENT_ID,
    MAILBOX_MCP_CLIENT_SECRET: TEST_CLIENT_SECRET,
    MAILBOX_MCP_BASE_URL: base, // every instance is the one public origin
    MAILBOX_MCP_ALLOW_PRIVATE_HOSTS: "true", // the harness Dovecot is on loopback
    MAILBOX_MCP_TRUST_PROXY: "true",
  };
  // One first, so the others find the schema migrated; then two at once.
  instances = [await startInstance("a", env)];
  instances.push(...(await Promise.all(["b", "c"].map((n) => startInstance(n, env)))));
  lb = await startHaproxy(instances.map((i) => i.port), lbPort);
  await untilAllUp();
}, 60_000);

/** haproxy routes to a backend once its first health check passed: wait until all three answer. */
async function untilAllUp(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const marks = mark();
    const replies = await Promise.all([1, 2, 3].map(() => fetch(`http://127.0.0.1:${lb.port}/oauth/meta`).then((r) => r.status, () => 0)));
    if (replies.every((s) => s === 200) && new Set(servedSince(marks).map((r) => r.instance)).size === 3) return;
    await Bun.sleep(100);
  }
  throw new Error("haproxy did not route to all three instances");
}

afterAll(async () => {
  await lb?.stop();
  await Promise.all((instances ?? []).map((i) => i.kill("SIGKILL")));
}, 20_000);

/** flow.ts's helpers, over HTTP through the load balancer, as client `ip`. */
function client(ip: string): Handler {
  return {
    async handle(req) {
      const url = new URL(req.url);
      const headers = new Headers(req.headers);
      headers.set("x-forwarded-for", ip);
      return fetch(`http://127.0.0.1:${lb.port}${url.pathname}${url.search}`, {
        method: req.method, headers, redirect: "manual", body: req.method === "GET" ? undefined : await req.arrayBuffer(),
      });
    },
  };
}

/** Which instance logged each (method, path) request since `marks` (counts per instance before). */
const mark = () => instances.map((i) => i.requests().length);
function servedSince(marks: number[]): Array<{ instance: string; method: string; path: string; status: number }> {
  return instances.flatMap((inst, k) => inst.requests().slice(marks[k]).map((r) => ({ instance: inst.name, ...r })));
}

/** An MCP initialize with `token`: a store round trip for the Bearer check on whichever instance answers. */
async function initialize(token: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${lb.port}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "cluster-test", version: "0" } } }),
  });
}

async function flowToCode(c: Handler, verifier = newVerifier(), as: Record<string, string> = {}) {
  const page = await authorize(c, authorizeQuery(verifier));
  if (page.status !== 200) throw new Error(`authorize ${page.status}`);
  const ids = formIds(await page.text());
  const res = await postForm(c, "/oauth/connect", aliceFields(h, ids, as));
  if (res.status !== 303) throw new Error(`connect ${res.status}`);
  return { verifier, code: new URL(res.headers.get("location")!).searchParams.get("code")! };
}

async function exchange(c: Handler, code: string, verifier: string): Promise<string> {
  const res = await postForm(c, "/oauth/token", tokenFields(code, verifier));
  if (res.status !== 200) throw new Error(`token ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe("three instances, one Postgres, haproxy round robin", () => {
  test("the OAuth flow (authorize, form, token) lands on different instances and yields a working token", async () => {
    const c = client("198.51.100.1");
    const marks = mark();
    const { code, verifier } = await flowToCode(c);
    const token = await exchange(c, code, verifier);
    const served = servedSince(marks);
    const at = (path: string) => served.find((r) => r.path === path)!.instance;
    expect(served.map((r) => r.path)).toEqual(expect.arrayContaining(["/oauth/authorize", "/oauth/connect", "/oauth/token"]));
    // Round robin: the three steps of one flow are served by three instances.
    expect(new Set([at("/oauth/authorize"), at("/oauth/connect"), at("/oauth/token")]).size).toBe(3);
    // The token is known to every instance: three initializes, one on each.
    const before = mark();
    for (let i = 0; i < 3; i++) expect((await initialize(token)).status).toBe(200);
    expect(new Set(servedSince(before).map((r) => r.instance)).size).toBe(3);
  }, 30_000);

  test("five failed logins spread over the instances trip the limit on all of them", async () => {
    const c = client("198.51.100.2");
    const marks = mark();
    // Not alice or bob, who sign in below: a mailbox the mail server does not know.
    const login = async (password: string) => {
      const ids = formIds(await (await authorize(c, authorizeQuery(newVerifier()))).text());
      return (await postForm(c, "/oauth/connect", aliceFields(h, ids, { email: "eve@example.test", password }))).status;
    };
    for (let i = 0; i < 5; i++) expect(await login(`wrong-${i}`)).toBe(401);
    const connects = servedSince(marks).filter((r) => r.path === "/oauth/connect");
    expect(new Set(connects.map((r) => r.instance)).size).toBe(3);
    // The sixth, on whichever instance, is refused before it reaches the mail server (not a 401).
    for (let i = 0; i < 3; i++) expect(await login(`wrong-${5 + i}`)).toBe(429);
  }, 30_000);

  test("12 wrong passwords at once across the instances: at most 5 reach the mail server", async () => {
    const c = client("198.51.100.3");
    const forms = await Promise.all(Array.from({ length: 12 }, async () => formIds(await (await authorize(c, authorizeQuery(newVerifier()))).text())));
    const statuses = await Promise.all(forms.map((ids, i) =>
      postForm(c, "/oauth/connect", aliceFields(h, ids, { email: "mallory@example.test", username: "mallory", password: `guess-${i}` }))
        .then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  }, 30_000);

  test("an instance started with another master key refuses, in one line", async () => {
    const r = await runCli(["serve"], { ...env, MAILBOX_MCP_PORT: String(await freePort()), MAILBOX_MCP_SECRET_KEY: randomBytes(32).toString("base64") });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("MAILBOX_MCP_SECRET_KEY is not the key this store was created with");
  }, 30_000);

  test("kill -9 of one instance during a run of calls: only calls in flight on it fail; nothing stored is lost", async () => {
    const c = client("198.51.100.4");
    // Stored before the loss: a token, a code not yet exchanged, an authorization not yet submitted.
    const kept = await flowToCode(c);
    const token = await exchange(c, kept.code, kept.verifier);
    const unexchanged = await flowToCode(c);
    const pendingIds = formIds(await (await authorize(c, authorizeQuery(newVerifier()))).text());

    // A run of calls: four clients, each a loop of authorizes (a rate-limit event and a pending row
    // written) and MCP initializes (a Bearer lookup), as many client addresses; bob's token, so that
    // alice's grants above are not replaced (5 per login) by the run.
    const bob = client("198.51.100.5");
    const bobCode = await flowToCode(bob, newVerifier(), { email: h.dovecot.users.bob.email, password: h.dovecot.users.bob.pass });
    const runToken = await exchange(bob, bobCode.code, bobCode.verifier);
    const outcomes: Array<{ startedAt: number; ok: boolean }> = [];
    const timed = async (fn: () => Promise<unknown>) => {
      const startedAt = performance.now();
      try {
        await fn();
        outcomes.push({ startedAt, ok: true });
      } catch {
        outcomes.push({ startedAt, ok: false });
      }
    };
    const stopAt = { done: false };
    let calls = 0;
    const worker = async () => {
      while (!stopAt.done) {
        const n = ++calls;
        await timed(async () => {
          const page = await authorize(client(`10.4.${n >> 8}.${n & 255}`), authorizeQuery(newVerifier()));
          if (page.status !== 200) throw new Error(`authorize ${page.status}`);
          await page.arrayBuffer();
        });
        await timed(async () => {
          const r = await initialize(runToken);
          if (r.status !== 200) throw new Error(`initialize ${r.status}`);
          await r.arrayBuffer();
        });
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await Bun.sleep(1500);
    const victim = instances[1]!;
    const servedBefore = victim.requests().length;
    await victim.kill("SIGKILL");
    const diedAt = performance.now(); // the process is gone (waited for): nothing is in flight on it after this
    await Bun.sleep(2500);
    stopAt.done = true;
    await Promise.all(workers);

    expect(servedBefore).toBeGreaterThan(0); // it had its share before
    const failed = outcomes.filter((o) => !o.ok);
    // At most one call per client was in flight on the victim when it died; every call started after
    // it was gone went to the others (haproxy redispatches a refused connection): none failed.
    expect(failed.length).toBeLessThanOrEqual(4);
    expect(failed.every((o) => o.startedAt < diedAt)).toBe(true);
    expect(outcomes.filter((o) => o.ok && o.startedAt > diedAt).length).toBeGreaterThan(50);

    // Nothing stored was lost: the token works on both survivors, the code exchanges, the form completes.
    for (let i = 0; i < 2; i++) expect((await initialize(token)).status).toBe(200);
    expect(await exchange(c, unexchanged.code, unexchanged.verifier)).toMatch(/^[0-9a-f]{64}$/);
    expect((await postForm(c, "/oauth/connect", aliceFields(h, pendingIds))).status).toBe(303);
  }, 60_000);

  // After the merges that move MCP sessions into the store (SDK v2 branch) and add the store-polled
  // revocation sequence (the `mailbox-mcp revoke` branch):
  test.todo("one 2025-era session's calls are spread over all three instances");
  test.todo("a 2026-07-28 client (no session) works through the load balancer");
  test.todo("revoking a token on one instance cuts an SSE stream it holds on another (within 2 s)");
  test.todo("kill -9 during a run of tool calls on one session: only the calls in flight on it fail, the session goes on");
});
