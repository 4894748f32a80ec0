// MCP through three instances on one Postgres behind haproxy in round robin, no affinity
// (test/support/cluster.ts): a 2025-era session is a store row, so any instance serves any of its
// calls (rebuilding it from the row); a 2026-07-28 client needs no session at all; a revocation made
// on one instance ends the token's stream on another within 2 s (issue 13); kill -9 of one instance
// fails only the calls in flight on it and the session goes on through the others.
import { LISTED_TOOLS } from "../../src/mcp/tools/index.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Client as ClientV2 } from "@modelcontextprotocol/client";
import { randomBytes } from "node:crypto";
import { openPostgres } from "../../src/store/db.ts";
import { initialize, startCluster, tokenFor, type Cluster, type Served } from "../support/cluster.ts";
import { runCli, type Instance } from "../support/instances.ts";
import { loginImap } from "../support/imap.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { callOk, connectClient } from "../support/mcp-client.ts";
import { callOkV2, connectV2, MODERN, sessionIdOf as sessionIdV2 } from "../support/mcp-client-v2.ts";
import { countRows } from "../support/stores.ts";
import { until } from "../support/until.ts";

let cl: Cluster;
const open: Array<Client | ClientV2> = [];

beforeAll(async () => {
  cl = await startCluster();
}, 60_000);

afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await cl?.stop();
}, 20_000);

const tag = () => randomBytes(4).toString("hex");
const sessionIdOf = (c: Client) => (c.transport as { sessionId?: string }).sessionId;
const direct = (inst: Instance) => `http://127.0.0.1:${inst.port}/mcp`;

/** A folder of alice's with one message of a subject of its own, delivered by the harness Dovecot. */
async function seed(name: string): Promise<{ folder: string; subject: string }> {
  const folder = `Cluster-${name}-${tag()}`;
  const subject = `cluster ${name} ${tag()}`;
  const imap = await loginImap(cl.h.dovecot, cl.h.dovecot.users.alice);
  try {
    await imap.mailboxCreate(folder);
  } finally {
    await imap.logout();
  }
  await cl.h.dovecot.deliver("alice", plainText({ subject }, "Served by whichever instance."), folder);
  return { folder, subject };
}

/** The instances that rebuilt a session from its row since `lineMarks` (log lines per instance). */
const restoredSince = (lineMarks: number[]) =>
  cl.instances.filter((inst, k) => inst.lines.slice(lineMarks[k]).some((l) => l.includes("mcp session restored")));
const lineMark = () => cl.instances.map((i) => i.lines.length);
const isMcpPost = (r: Served) => r.method === "POST" && r.path === "/mcp";
/** The /mcp POSTs logged since `marks`, once there are at least `n`. */
const mcpPosts = (marks: number[], n: number) => cl.servedAtLeast(marks, n, isMcpPost);
/** restoredSince, once at least `n` instances logged a restore. */
async function restoredAtLeast(lineMarks: number[], n: number) {
  await until(() => restoredSince(lineMarks).length >= n, { what: `${n} instances to log a restored session` });
  return restoredSince(lineMarks);
}

async function recentSubjects(client: Client, folder: string): Promise<string[]> {
  return (await callOk(client, "get_recent_emails", { folder, limit: 5 })).emails.map((e: { subject: string }) => e.subject);
}

describe("MCP on three instances, one Postgres, haproxy round robin", () => {
  test("one 2025-era session's calls are served by all three instances, each with the mail", async () => {
    const token = await tokenFor(cl.h, cl.client("198.51.100.21"));
    const { folder, subject } = await seed("spread");
    const marks = cl.mark();
    const lines = lineMark();
    const client = await connectClient(cl.mcpUrl, token);
    open.push(client);
    const id = sessionIdOf(client);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    for (let i = 0; i < 9; i++) expect(await recentSubjects(client, folder)).toEqual([subject]);
    expect(sessionIdOf(client)).toBe(id);
    const posts = await mcpPosts(marks, 11); // initialize, notifications/initialized, 9 calls
    expect(posts.every((r) => r.status === 200 || r.status === 202)).toBe(true);
    expect(new Set(posts.map((r) => r.instance)).size).toBe(3);
    // The instance that answered initialize holds the live session; the other two rebuilt it from its row.
    expect(await restoredAtLeast(lines, 2)).toHaveLength(2);
  }, 30_000);

  test("a 2026-07-28 client (no session) lists the tools and reads mail through the load balancer", async () => {
    const token = await tokenFor(cl.h, cl.client("198.51.100.22"));
    const { folder, subject } = await seed("modern");
    const marks = cl.mark();
    const client = await connectV2(cl.mcpUrl, token, { pin: MODERN });
    open.push(client);
    expect(sessionIdV2(client)).toBeUndefined();
    expect((await client.listTools()).tools).toHaveLength(LISTED_TOOLS.length);
    const recent = await callOkV2(client, "get_recent_emails", { folder, limit: 5 });
    expect(recent.emails.map((e: { subject: string }) => e.subject)).toEqual([subject]);
    // server/discover, tools/list, tools/call: one after the other, round robin, so three instances.
    const posts = await mcpPosts(marks, 3);
    expect(posts.every((r) => r.status === 200)).toBe(true);
    expect(new Set(posts.map((r) => r.instance)).size).toBe(3);
  }, 30_000);

  /**
   * Opens a session and its GET stream straight on instance b, revokes with `revoke` (which returns
   * the instant to count from), and checks the stream ends within 2 s and the token is refused everywhere.
   */
  async function streamCutBy(ip: string, as: Record<string, string>, revoke: (token: string, x: Instance) => Promise<number>, how: string) {
    const token = await tokenFor(cl.h, cl.client(ip), as);
    const [x, y] = cl.instances as [Instance, Instance, Instance];
    const init = await initialize(cl.mcpUrl, token);
    expect(init.status).toBe(200);
    await init.text();
    const id = init.headers.get("mcp-session-id")!;
    const headers = { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" };
    const notified = await fetch(cl.mcpUrl, {
      method: "POST", headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(notified.status).toBe(202);
    // The stream, straight on y, so that we know where it lives.
    const sse = await fetch(direct(y), { method: "GET", headers });
    expect(sse.status).toBe(200);
    expect(sse.headers.get("content-type")).toContain("text/event-stream");
    let endedAt = 0;
    const ended = sse.text().then(() => { endedAt = performance.now(); }, () => { endedAt = performance.now(); });

    expect(endedAt).toBe(0); // still open
    const revokedAt = await revoke(token, x);
    await Promise.race([ended, Bun.sleep(5_000)]); // a bound, not a wait: the 2 s are asserted below; a stream that never ends fails, not hangs
    expect(endedAt).toBeGreaterThan(0);
    expect(endedAt - revokedAt).toBeLessThan(2_000);
    if (process.env.CLUSTER_VERBOSE) console.log(`stream on ${y.name} ended ${(endedAt - revokedAt).toFixed(0)} ms after the revoke (${how})`);
    for (const inst of cl.instances) {
      expect((await initialize(direct(inst), token)).status).toBe(401);
      expect((await fetch(direct(inst), { method: "GET", headers })).status).toBe(401);
    }
  }

  test("revoking a token on one instance ends its SSE stream on another within 2 s; then 401 everywhere", async () => {
    await streamCutBy("198.51.100.23", {}, async (token, x) => {
      const at = performance.now(); // from the request: the 2 s include the revoking instance's own work
      const res = await fetch(`http://127.0.0.1:${x.port}/oauth/revoke`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }),
      });
      expect(res.status).toBe(200);
      return at;
    }, "POST /oauth/revoke on a");
  }, 30_000);

  test("`mailbox-mcp revoke` on the database URL (no instance involved) ends the stream too", async () => {
    const bob = cl.h.dovecot.users.bob;
    await streamCutBy("198.51.100.25", { email: bob.email, password: bob.pass }, async () => {
      const r = await runCli(["revoke", bob.email], cl.env);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      return performance.now(); // from the verb's exit (its own start-up is not the servers' doing)
    }, "mailbox-mcp revoke");
  }, 30_000);

  test("kill -9 during a run of tool calls on one session: only the calls in flight on it fail, the session goes on", async () => {
    const token = await tokenFor(cl.h, cl.client("198.51.100.24"));
    const { folder, subject } = await seed("kill");
    const lines = lineMark();
    const client = await connectClient(cl.mcpUrl, token);
    open.push(client);
    const id = sessionIdOf(client);
    for (let i = 0; i < 3; i++) expect(await recentSubjects(client, folder)).toEqual([subject]);
    // The victim is the instance that opened the session (the only one that did not rebuild it from
    // its row): what it held in memory dies with it; the row carries the session on.
    const restored = await restoredAtLeast(lines, 2);
    expect(restored).toHaveLength(2);
    const victim = cl.instances.find((i) => !restored.includes(i))!;
    const db = await openPostgres(cl.env.MAILBOX_MCP_DATABASE_URL!);
    const stored = async () => [await countRows(db, "grants"), await countRows(db, "tokens"), await countRows(db, "mcp_sessions")];

    try {
      const before = await stored();
      const outcomes: Array<{ startedAt: number; ok: boolean }> = [];
      const stop = { done: false };
      const worker = async () => {
        while (!stop.done) {
          const startedAt = performance.now();
          const ok = await recentSubjects(client, folder).then((s) => s.join() === subject, () => false);
          outcomes.push({ startedAt, ok });
        }
      };
      const servedAtStart = victim.requests().length;
      const workers = Array.from({ length: 4 }, worker);
      // The run is under way: calls answered, some of them by the victim.
      await until(() => outcomes.filter((o) => o.ok).length >= 8 && victim.requests().length >= servedAtStart + 2, {
        what: "the run of tool calls to be under way on every instance", timeoutMs: 15_000,
      });
      const servedBefore = victim.requests().length;
      await victim.kill("SIGKILL");
      const diedAt = performance.now(); // the process is gone (waited for): nothing is in flight on it after this
      const marks = cl.mark();
      // The run goes on across both phases: before haproxy's check notices (a refused connection is
      // redispatched) and after it took the victim out; until then 10 calls started after the death succeeded.
      const victimIndex = cl.instances.indexOf(victim);
      await until(() => cl.lb.isDown(victimIndex) && outcomes.filter((o) => o.ok && o.startedAt > diedAt).length > 10, {
        what: "haproxy to take the killed instance out, and 10 calls after its death to succeed", timeoutMs: 20_000,
      });
      stop.done = true;
      await Promise.all(workers);

      expect(servedBefore).toBeGreaterThan(0);
      const failed = outcomes.filter((o) => !o.ok);
      // At most one call per worker was in flight on the victim when it died; every call started
      // after it was gone went to the others (haproxy redispatches a refused connection): none failed.
      expect(failed.length).toBeLessThanOrEqual(4);
      expect(failed.every((o) => o.startedAt < diedAt)).toBe(true);
      expect(outcomes.filter((o) => o.ok && o.startedAt > diedAt).length).toBeGreaterThan(10);
      // The same session, served by both survivors; nothing stored was lost.
      expect(sessionIdOf(client)).toBe(id);
      expect(await recentSubjects(client, folder)).toEqual([subject]);
      // Every call started after the death was served by a survivor, and so was the one above.
      const after = outcomes.filter((o) => o.startedAt > diedAt).length + 1;
      const survivors = new Set((await mcpPosts(marks, after)).map((r) => r.instance));
      expect(survivors).toEqual(new Set(cl.instances.filter((i) => i !== victim).map((i) => i.name)));
      expect(await stored()).toEqual(before);
    } finally {
      await db.close();
    }
  }, 60_000);
});
