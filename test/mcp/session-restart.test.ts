// 2025-era sessions are rows in the store (src/store/mcp-sessions.ts): a server restart between two
// calls of one session does not end it. The real service (src/service.ts) on a data dir, stopped and
// started again on the same port and store, with the official SDK client keeping its Mcp-Session-Id.
import { LISTED_TOOLS } from "../../src/mcp/tools/index.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { systemClock } from "../../src/clock.ts";
import { silentLogger } from "../../src/log.ts";
import { startService, type Service } from "../../src/service.ts";
import { DB_FILE } from "../../src/store/data-dir.ts";
import { openStore } from "../../src/store/store.ts";
import { testConfig } from "../support/app.ts";
import { freePort } from "../support/dovecot.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { callOk, connectClient } from "../support/mcp-client.ts";
import { callOkV2, connectV2, sessionIdOf as sessionIdV2 } from "../support/mcp-client-v2.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";

let h: Harness;
let dir: string;
let config: ReturnType<typeof testConfig>;
let service: Service | null = null;
let grant: { token: string; tokenId: string };
const clients: Client[] = [];

beforeAll(async () => {
  h = await getHarness();
  dir = mkdtempSync(join(tmpdir(), "mailbox-mcp-restart-"));
  const port = await freePort();
  config = testConfig({ dataDir: dir, port, baseUrl: `http://localhost:${port}` });
  service = await startService(config, silentLogger);
  const store = await openStore({ databaseUrl: null, sqlitePath: join(dir, DB_FILE), masterKey: config.secretKey, clock: systemClock });
  grant = await issueTestGrant(store, testAccount(h.dovecot.users.alice, h.dovecot));
  await store.close();
}, 30_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function restart(): Promise<void> {
  await service!.stop();
  service = await startService(config, silentLogger);
}

const mcpUrl = () => `${config.baseUrl}/mcp`;
const sessionIdOf = (c: Client) => (c.transport as { sessionId?: string }).sessionId;

describe("a server restart between two calls of one session", () => {
  test("the second call succeeds on the same Mcp-Session-Id", async () => {
    const client = await connectClient(mcpUrl(), grant.token);
    clients.push(client);
    const id = sessionIdOf(client);
    const before = await callOk(client, "list_mailboxes");
    await restart();
    const after = await callOk(client, "list_mailboxes");
    expect(after.mailboxes.map((m: { path: string }) => m.path)).toEqual(before.mailboxes.map((m: { path: string }) => m.path));
    expect(sessionIdOf(client)).toBe(id);
    // The rebuilt session answers like the first: tools/list, any supported protocol version, DELETE.
    expect((await client.listTools()).tools).toHaveLength(LISTED_TOOLS.length);
    const raw = await fetch(mcpUrl(), {
      method: "POST",
      headers: {
        authorization: `Bearer ${grant.token}`, "content-type": "application/json", accept: "application/json, text/event-stream",
        "mcp-session-id": id!, "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }),
    });
    expect(raw.status).toBe(200);
    await raw.text();
  });

  test("the same with the SDK's v2 client in legacy mode", async () => {
    const client = await connectV2(mcpUrl(), grant.token, "legacy");
    const id = sessionIdV2(client);
    await callOkV2(client, "list_providers");
    await restart();
    expect((await callOkV2(client, "list_mailboxes")).mailboxes.length).toBeGreaterThan(3);
    expect(sessionIdV2(client)).toBe(id);
    await client.close();
  });

  test("two restarts in a row, and a session opened on the second server, carry on", async () => {
    const first = await connectClient(mcpUrl(), grant.token);
    clients.push(first);
    await restart();
    const second = await connectClient(mcpUrl(), grant.token);
    clients.push(second);
    await restart();
    for (const c of [first, second]) expect((await callOk(c, "list_providers")).providers.length).toBeGreaterThan(5);
  });

  test("a session deleted before the restart stays deleted (404)", async () => {
    const client = await connectClient(mcpUrl(), grant.token);
    const id = sessionIdOf(client)!;
    await (client.transport as unknown as { terminateSession(): Promise<void> }).terminateSession();
    await client.close();
    await restart();
    const res = await fetch(mcpUrl(), {
      method: "POST",
      headers: { authorization: `Bearer ${grant.token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": id },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(res.status).toBe(404);
  });

  test("another instance on the same store serves the session; a DELETE there ends it here too", async () => {
    const port = await freePort();
    const other = await startService({ ...config, port, baseUrl: `http://localhost:${port}` }, silentLogger);
    try {
      const client = await connectClient(mcpUrl(), grant.token);
      const id = sessionIdOf(client)!;
      const headers = {
        authorization: `Bearer ${grant.token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": id,
      };
      const ping = (url: string) => fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
      const there = await ping(`http://localhost:${port}/mcp`);
      expect(there.status).toBe(200);
      await there.text();
      expect((await fetch(`http://localhost:${port}/mcp`, { method: "DELETE", headers })).status).toBe(200);
      expect((await ping(mcpUrl())).status).toBe(404);
      await client.close();
    } finally {
      await other.stop();
    }
  });

  test("the store keeps the session id only hashed", async () => {
    const id = sessionIdOf(clients[0]!)!;
    const files = readdirSync(dir).filter((f) => f.startsWith(DB_FILE));
    for (const f of files) expect(readFileSync(join(dir, f)).includes(Buffer.from(id))).toBe(false);
  });
});
