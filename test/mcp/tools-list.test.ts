// What clients see of every tool in tools/list (name, title, description, input and output JSON
// Schema, annotations), compared with the committed test/mcp/tools-list.snapshot.json, so that any
// change to it, a reworded description included, is a reviewed diff. Listed through real clients
// over HTTP: the v1 client (2025-11-25, a session) and the v2 client pinned to 2026-07-28.
// After an intended change: UPDATE_TOOLS_SNAPSHOT=1 bun run test test/mcp/tools-list.test.ts,
// then review and commit the file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { connectV2, MODERN } from "../support/mcp-client-v2.ts";
import { issueTestToken } from "../support/token.ts";

const SNAPSHOT = new URL("./tools-list.snapshot.json", import.meta.url);
const UPDATE = process.env.UPDATE_TOOLS_SNAPSHOT === "1";

let srv: TestServer;
let token: string;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  srv = await startTestServer();
  // Listing tools never opens the mailbox: an account that points nowhere is enough.
  token = await issueTestToken(srv.deps, {
    provider: "custom", email: "snapshot@example.test", username: "snapshot", auth: { kind: "password", password: "unused" },
    imap: { host: "localhost", port: 1, security: "none" }, smtp: { host: "localhost", port: 1, security: "none" }, providerSavesSent: false,
  });
}, 30_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await srv?.stop();
});

/** v1 and v2 clients alike; the test server's origin (a free port) written as {base_url}, as in the icons' URLs. */
async function listed(client: { listTools(): Promise<{ tools: unknown[] }>; close(): Promise<void> }): Promise<unknown[]> {
  open.push(client);
  return JSON.parse(JSON.stringify((await client.listTools()).tools).replaceAll(srv.baseUrl, "{base_url}"));
}

test("tools/list shows exactly what tools-list.snapshot.json holds", async () => {
  const tools = await listed(await connectClient(srv.mcpUrl, token));
  if (UPDATE) await Bun.write(SNAPSHOT, `${JSON.stringify(tools, null, 2)}\n`);
  const committed = await Bun.file(SNAPSHOT).json();
  expect(tools).toEqual(committed);
});

test(`a ${MODERN} client sees the same list`, async () => {
  const legacy = await listed(await connectClient(srv.mcpUrl, token));
  const modern = await listed(await connectV2(srv.mcpUrl, token, { pin: MODERN }));
  expect(modern).toEqual(legacy);
});
