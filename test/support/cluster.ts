// Three mailbox-mcp instances on one Postgres behind haproxy in round robin, no affinity
// (docs/deploy.md): real server processes configured as an operator would, the harness Dovecot as
// the mail server. Each cluster test file starts its own (a few seconds), so that one file's kill -9
// does not leave the next with two. MAILBOX_MCP_TRUST_PROXY with X-Forwarded-For lets each test be
// its own client address; the instances' request logs tell which one served what.
import { randomBytes } from "node:crypto";
import { getHarness, type Harness } from "./harness.ts";
import { startHaproxy, type Haproxy } from "./haproxy.ts";
import { startInstance, type Instance } from "./instances.ts";
import { freshDatabaseUrl } from "./stores.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "./app.ts";
import { freePort } from "./ports.ts";
import { until } from "./until.ts";
import {
  aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, tokenFields, type Handler,
} from "../oauth/flow.ts";

export interface Served { instance: string; method: string; path: string; status: number }

export interface Cluster {
  h: Harness;
  lb: Haproxy;
  instances: Instance[];
  /** The environment every instance runs with. */
  env: Record<string, string>;
  /** The one public origin, through the load balancer. */
  base: string;
  mcpUrl: string;
  /** flow.ts's helpers, over HTTP through the load balancer, as client `ip`. */
  client(ip: string): Handler;
  /** Request counts per instance now, for servedSince. */
  mark(): number[];
  /** Which instance logged each request since `marks`. */
  servedSince(marks: number[]): Served[];
  /**
   * servedSince, once at least `n` of those requests (the ones `pick` keeps) are logged. An instance
   * logs a request before it answers, but its log comes through a pipe of its own and can reach the
   * test after the answer does; counting right after the answer can miss the last line.
   */
  servedAtLeast(marks: number[], n: number, pick?: (r: Served) => boolean): Promise<Served[]>;
  stop(): Promise<void>;
}

/** `env`: more settings for every instance (e.g. MAILBOX_MCP_SEND_LIMITS). */
export async function startCluster(env: Record<string, string> = {}): Promise<Cluster> {
  const h = await getHarness();
  const lbPort = await freePort();
  const base = `http://localhost:${lbPort}`;
  const settings = {
    ...env,
    MAILBOX_MCP_DATABASE_URL: await freshDatabaseUrl("cluster"),
    MAILBOX_MCP_SECRET_KEY: randomBytes(32).toString("base64"),
    MAILBOX_MCP_CLIENT_ID: TEST_CLIENT_ID,
    MAILBOX_MCP_CLIENT_SECRET: TEST_CLIENT_SECRET,
    MAILBOX_MCP_BASE_URL: base, // every instance is the one public origin
    MAILBOX_MCP_ALLOW_PRIVATE_HOSTS: "true", // the harness Dovecot is on loopback
    MAILBOX_MCP_TRUST_PROXY: "true",
  };
  // One first, so the others find the schema migrated; then two at once.
  const instances = [await startInstance("a", settings)];
  instances.push(...(await Promise.all(["b", "c"].map((n) => startInstance(n, settings)))));
  const lb = await startHaproxy(instances.map((i) => i.port), lbPort);
  const mark = () => instances.map((i) => i.requests().length);
  const servedSince = (marks: number[]) =>
    instances.flatMap((inst, k) => inst.requests().slice(marks[k]).map((r) => ({ instance: inst.name, ...r })));
  const servedAtLeast = async (marks: number[], n: number, pick: (r: Served) => boolean = () => true) => {
    await until(() => servedSince(marks).filter(pick).length >= n, { what: () => `${n} requests logged, ${servedSince(marks).filter(pick).length} so far` });
    return servedSince(marks).filter(pick);
  };
  const cluster: Cluster = {
    h, lb, instances, env: settings, base, mcpUrl: `${base}/mcp`, mark, servedSince, servedAtLeast,
    client: (ip) => ({
      async handle(req) {
        const url = new URL(req.url);
        const headers = new Headers(req.headers);
        headers.set("x-forwarded-for", ip);
        return fetch(`http://127.0.0.1:${lb.port}${url.pathname}${url.search}`, {
          method: req.method, headers, redirect: "manual", body: req.method === "GET" ? undefined : await req.arrayBuffer(),
        });
      },
    }),
    async stop() {
      await lb.stop();
      await Promise.all(instances.map((i) => i.kill("SIGKILL")));
    },
  };
  try {
    await untilAllUp(cluster);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

/** haproxy routes to a backend once its first health check passed: wait until all three answer. */
async function untilAllUp(c: Cluster): Promise<void> {
  await until(async () => {
    const marks = c.mark();
    const replies = await Promise.all([1, 2, 3].map(() => fetch(`http://127.0.0.1:${c.lb.port}/oauth/meta`).then((r) => r.status, () => 0)));
    return replies.every((s) => s === 200) && new Set(c.servedSince(marks).map((r) => r.instance)).size === 3;
  }, { what: "haproxy to route to all three instances", timeoutMs: 10_000, intervalMs: 50 });
}

/** authorize → connect (as alice, or `as` overrides) through `c`: the code and its verifier. */
export async function flowToCode(h: Harness, c: Handler, verifier = newVerifier(), as: Record<string, string> = {}) {
  const page = await authorize(c, authorizeQuery(verifier));
  if (page.status !== 200) throw new Error(`authorize ${page.status}`);
  const ids = formIds(await page.text());
  const res = await postForm(c, "/oauth/connect", aliceFields(h, ids, as));
  if (res.status !== 303) throw new Error(`connect ${res.status}`);
  return { verifier, code: new URL(res.headers.get("location")!).searchParams.get("code")! };
}

export async function exchange(c: Handler, code: string, verifier: string): Promise<string> {
  const res = await postForm(c, "/oauth/token", tokenFields(code, verifier));
  if (res.status !== 200) throw new Error(`token ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A fresh access token through the whole OAuth flow, as alice unless `as` says otherwise. */
export async function tokenFor(h: Harness, c: Handler, as: Record<string, string> = {}): Promise<string> {
  const { code, verifier } = await flowToCode(h, c, newVerifier(), as);
  return exchange(c, code, verifier);
}

/** An MCP initialize with `token` at `url` (the balancer's or one instance's /mcp). */
export function initialize(url: string, token: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "cluster-test", version: "0" } } }),
  });
}
