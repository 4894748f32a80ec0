// Two instances on one Postgres (docs/oauth-providers.md §3): after the access token's renewal time, both
// called at once with the same MCP token renew it exactly once — the second waits on the grant's row
// lock while the first is at the provider, then uses what the first stored — and a rotated refresh
// token is never sent twice.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { serve } from "../../src/http/serve.ts";
import { silentLogger } from "../../src/log.ts";
import { openPostgres, type Db } from "../../src/store/db.ts";
import { migrate } from "../../src/store/schema.ts";
import { storesOver } from "../../src/store/store.ts";
import type { Config } from "../../src/config.ts";
import { testDeps } from "../support/app.ts";
import type { FakeClient } from "../support/fake-oauth/server.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { callOk, connectClient } from "../support/mcp-client.ts";
import { freePort } from "../support/ports.ts";
import { freshDatabaseUrl } from "../support/stores.ts";
import { until } from "../support/until.ts";
import { signedInToken } from "./sign-in-flow.ts";

interface Instance { deps: ReturnType<typeof testDeps>; mcpUrl: string; stop(): Promise<void> }

let h: Harness;
let fake: FakeClient;
let admin: Db;
const instances: Instance[] = [];
const clients: Client[] = [];
let base = "";

/** An instance on the store at `url`, on its own port; every instance has the one public URL (behind a load balancer). */
async function instance(url: string, oauth: Config["oauth"], port: number): Promise<Instance> {
  const db = await openPostgres(url);
  const deps = testDeps({ baseUrl: base, oauth }, { makeStore: (key, clock) => storesOver(db, key, clock) });
  const server = serve(deps.app, { hostname: "127.0.0.1", port, log: silentLogger });
  const stop = async () => { await deps.runtime.close(); await server.stop(true); await db.close(); };
  return { deps, mcpUrl: `http://localhost:${port}/mcp`, stop };
}

beforeAll(async () => {
  h = await getHarness();
  const url = await freshDatabaseUrl("signin");
  admin = await openPostgres(url);
  await migrate(admin);
  fake = h.oauth.client({ redirectUris: [], clock: () => instances[0]!.deps.clock(), accessTtlS: 10 });
  const mail = { imap: { host: "localhost", port: h.dovecot.port, security: "none" as const }, smtp: { host: "localhost", port: h.smtp.port, security: "none" as const } };
  const oauth = { microsoft: null, google: null, file: [fake.settings(mail, { id: "fake" })] };
  const ports = [await freePort(), await freePort()];
  base = `http://localhost:${ports[0]}`; // the sign-in is served by the first
  for (const port of ports) instances.push(await instance(url, oauth, port));
  instances[1]!.deps.clock.set(instances[0]!.deps.clock());
  fake.options.redirectUris.push(`${base}/oauth/upstream/callback`);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  for (const i of instances) await i.stop();
  await admin?.close();
});

const advance = (ms: number) => instances.forEach((i) => i.deps.clock.advance(ms));
const send = (c: Client, subject: string) => callOk(c, "send_email", { to: "bob@example.test", subject, text: "x" });

describe("two instances on one Postgres", () => {
  test("after expiry, called at once: exactly one refresh, the other instance uses it", async () => {
    const token = await signedInToken(base, "fake");
    for (const i of instances) clients.push(await connectClient(i.mcpUrl, token));
    const [onA, onB] = clients as [Client, Client];
    await Promise.all([send(onA, "a0"), send(onB, "b0")]); // both hold the account in memory now
    const start = { ...fake.counts };
    advance(9_000); // past 8 s: both find the token due

    let release!: () => void;
    fake.hold = new Promise<void>((r) => { release = r; });
    const both = Promise.all([send(onA, "a1"), send(onB, "b1")]);
    // One renewal is at the provider; the other instance waits on the grant's row lock.
    await until(async () => fake.counts.refreshAttempts === start.refreshAttempts + 1 && (await waitingOnLock()),
      { what: "one refresh at the provider and one instance waiting on the row lock" });
    fake.hold = null;
    release();
    await both;
    expect(fake.counts.refreshes - start.refreshes).toBe(1);
    expect(fake.counts.refreshAttempts - start.refreshAttempts).toBe(1);

    // Next time the other one goes first: still one each time, and the rotated token is the stored one.
    advance(9_000);
    await send(onB, "b2");
    await send(onA, "a2");
    expect(fake.counts.refreshes - start.refreshes).toBe(2);
    expect(fake.counts.replays).toBe(start.replays);
  }, 60_000);
});

async function waitingOnLock(): Promise<boolean> {
  const [row] = await admin.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM pg_locks WHERE NOT granted`;
  return Number(row!.n) > 0;
}
