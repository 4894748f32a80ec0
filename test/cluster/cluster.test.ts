// Three instances on one Postgres behind haproxy in round robin, no affinity (test/support/cluster.ts).
// What must hold across instances for OAuth and the limits: the OAuth flow may land anywhere, a rate
// limit counts across all of them, and losing one instance (kill -9) fails only what was in flight on
// it and loses nothing stored. The MCP side (sessions, 2026-07-28, revocation) is in cluster-mcp.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import type { Harness } from "../support/harness.ts";
import { runCli } from "../support/instances.ts";
import { freePort } from "../support/ports.ts";
import { until } from "../support/until.ts";
import { exchange, flowToCode as flowVia, initialize as initializeAt, startCluster, type Cluster } from "../support/cluster.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, type Handler } from "../oauth/flow.ts";

let cl: Cluster;
let h: Harness;

beforeAll(async () => {
  cl = await startCluster();
  h = cl.h;
}, 60_000);

afterAll(async () => {
  await cl?.stop();
}, 20_000);

const client = (ip: string) => cl.client(ip);
const mark = () => cl.mark();
/** An MCP initialize with `token`: a store round trip for the Bearer check on whichever instance answers. */
const initialize = (token: string) => initializeAt(`http://127.0.0.1:${cl.lb.port}/mcp`, token);
const flowToCode = (c: Handler, verifier = newVerifier(), as: Record<string, string> = {}) => flowVia(h, c, verifier, as);

describe("three instances, one Postgres, haproxy round robin", () => {
  test("the OAuth flow (authorize, form, token) lands on different instances and yields a working token", async () => {
    const c = client("198.51.100.1");
    const marks = mark();
    const { code, verifier } = await flowToCode(c);
    const token = await exchange(c, code, verifier);
    const steps = ["/oauth/authorize", "/oauth/connect", "/oauth/token"];
    const served = await cl.servedAtLeast(marks, 3, (r) => steps.includes(r.path));
    const at = (path: string) => served.find((r) => r.path === path)!.instance;
    expect(served.map((r) => r.path)).toEqual(expect.arrayContaining(steps));
    // Round robin: the three steps of one flow are served by three instances.
    expect(new Set([at("/oauth/authorize"), at("/oauth/connect"), at("/oauth/token")]).size).toBe(3);
    // The token is known to every instance: three initializes, one on each.
    const before = mark();
    for (let i = 0; i < 3; i++) expect((await initialize(token)).status).toBe(200);
    expect(new Set((await cl.servedAtLeast(before, 3)).map((r) => r.instance)).size).toBe(3);
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
    const connects = await cl.servedAtLeast(marks, 5, (r) => r.path === "/oauth/connect");
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
    const r = await runCli(["serve"], { ...cl.env, MAILBOX_MCP_PORT: String(await freePort()), MAILBOX_MCP_SECRET_KEY: randomBytes(32).toString("base64") });
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
    const outcomes: Array<{ startedAt: number; ok: boolean; error?: string }> = [];
    const timed = async (fn: () => Promise<unknown>) => {
      const startedAt = performance.now();
      try {
        await fn();
        outcomes.push({ startedAt, ok: true });
      } catch (err) {
        outcomes.push({ startedAt, ok: false, error: (err as Error).message });
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
    const victim = cl.instances[1]!;
    const servedAtStart = victim.requests().length;
    const workers = Array.from({ length: 4 }, worker);
    // The run is under way: calls answered, some of them by the victim.
    await until(() => outcomes.filter((o) => o.ok).length >= 20 && victim.requests().length >= servedAtStart + 4, {
      what: "the run of calls to be under way on every instance", timeoutMs: 15_000,
    });
    const servedBefore = victim.requests().length;
    await victim.kill("SIGKILL");
    const diedAt = performance.now(); // the process is gone (waited for): nothing is in flight on it after this
    // The run goes on across both phases: before haproxy's check notices (a refused connection is
    // redispatched) and after it took the victim out; until then 50 calls started after the death succeeded.
    await until(() => cl.lb.isDown(1) && outcomes.filter((o) => o.ok && o.startedAt > diedAt).length > 50, {
      what: "haproxy to take the killed instance out, and 50 calls after its death to succeed", timeoutMs: 20_000,
    });
    stopAt.done = true;
    await Promise.all(workers);

    expect(servedBefore).toBeGreaterThan(0); // it had its share before
    const failed = outcomes.filter((o) => !o.ok);
    // At most one call per client was in flight on the victim when it died; every call started after
    // it was gone went to the others (haproxy redispatches a refused connection): none failed.
    expect(failed.length).toBeLessThanOrEqual(4);
    expect(failed.filter((o) => o.startedAt >= diedAt)).toEqual([]);
    expect(outcomes.filter((o) => o.ok && o.startedAt > diedAt).length).toBeGreaterThan(50);

    // Nothing stored was lost: the token works on both survivors, the code exchanges, the form completes.
    for (let i = 0; i < 2; i++) expect((await initialize(token)).status).toBe(200);
    expect(await exchange(c, unexchanged.code, unexchanged.verifier)).toMatch(/^[0-9a-f]{64}$/);
    expect((await postForm(c, "/oauth/connect", aliceFields(h, pendingIds))).status).toBe(303);
  }, 60_000);
});
