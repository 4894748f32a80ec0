// A 2025-era session's elicitation answered through another instance (docs/decisions.md
// "Confirmation across instances"): the v1 SDK client's tools/call goes to instance A, which asks
// the person with elicitation/create on that call's stream; the client's answer (a POST of a
// JSON-RPC response) is routed to instance B, as a round-robin load balancer may do. B files it in
// the shared store; A picks it up and the call completes. Without the relay A would wait out its
// 10-minute round and this test would time out. Two real servers share one Postgres schema.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { randomBytes } from "node:crypto";
import { openPostgres, type Db } from "../../../src/store/db.ts";
import { migrate } from "../../../src/store/schema.ts";
import { storesOver } from "../../../src/store/store.ts";
import { getHarness, type Harness } from "../../support/harness.ts";
import { call, startTestServer, type TestServer } from "../../support/mcp-client.ts";
import { freshDatabaseUrl } from "../../support/stores.ts";
import { issueTestGrant, testAccount } from "../../support/token.ts";

let h: Harness;
let a: TestServer;
let b: TestServer;
const dbs: Db[] = [];
const open: Client[] = [];

beforeAll(async () => {
  h = await getHarness();
  const url = await freshDatabaseUrl("relay");
  for (let i = 0; i < 2; i++) {
    const db = await openPostgres(url);
    if (i === 0) await migrate(db);
    dbs.push(db);
  }
  a = await startTestServer({ makeStore: (key, clock) => storesOver(dbs[0]!, key, clock) });
  b = await startTestServer({ makeStore: (key, clock) => storesOver(dbs[1]!, key, clock) });
}, 30_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await a?.stop();
  await b?.stop();
  await Promise.all(dbs.map((db) => db.close()));
});

describe("an elicitation answer that reaches another instance", () => {
  test("is relayed through the store to the instance that asked; the message is sent once", async () => {
    const account = testAccount(h.dovecot.users.alice, { host: "localhost", port: h.dovecot.port }, h.smtp.port);
    const { token } = await issueTestGrant(a.deps, account, "email:read email:write", undefined, "always");
    const routed: string[] = [];
    // Every request to A, except a body that is the client's answer to a server request: that one to B.
    const fetchVia = async (input: string | URL | Request, init?: RequestInit) => {
      const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string; result?: unknown }) : null;
      const toB = !!body && body.method === undefined && "result" in body;
      routed.push(toB ? "answer to B" : `${body?.method ?? init?.method ?? "GET"} to A`);
      return fetch(toB ? b.mcpUrl : input, init);
    };
    const client = new Client({ name: "relay", version: "0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { decision: "send" } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(a.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } }, fetch: fetchVia as typeof fetch,
    }));
    open.push(client);
    const subject = `relayed ${randomBytes(4).toString("hex")}`;
    const res = await call(client, "send_email", { to: h.dovecot.users.alice.email, subject, text: "x" });
    expect(res.structuredContent).toMatchObject({ status: "sent", decision: "confirmed" });
    expect(routed).toContain("answer to B");
    expect(h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject))).toHaveLength(1);
    expect((await dbs[0]!.q`SELECT id FROM mcp_session_answers`).length).toBe(0); // taken, not left behind
  }, 30_000);
});
