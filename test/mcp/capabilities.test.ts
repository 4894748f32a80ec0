// What the server declares it can do (src/mcp/capabilities.ts), and the held-open stream it must not
// offer (issue 19, item 13): our tool list never changes, so `tools.listChanged` is false in both
// protocol eras, and a 2026-07-28 `subscriptions/listen` asking for tool changes is acknowledged with
// nothing honoured and its stream ends at once instead of staying open (the SDK keeps up to 1,024).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { USERS } from "../support/dovecot.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";
import { rpcMessages } from "../support/rpc-body.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { ownCapabilities, SERVER_CAPABILITIES } from "../../src/mcp/capabilities.ts";

const MODERN = "2026-07-28";
let srv: TestServer;
let token: string;

beforeAll(async () => {
  srv = await startTestServer();
  token = (await issueTestGrant(srv.deps, testAccount(USERS.alice, { host: "localhost", port: 1 }))).token;
});
afterAll(() => srv.stop());

function modern(method: string, params: Record<string, unknown> = {}) {
  const body = {
    jsonrpc: "2.0", id: 7, method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
      },
    },
  };
  return fetch(srv.mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN, "mcp-method": method,
    },
    body: JSON.stringify(body),
  });
}

/** The JSON-RPC messages of an SSE body. */
const messages = rpcMessages;

describe("declared capabilities", () => {
  test("server/discover: tools, and no list-change notifications", async () => {
    const { result } = await (await modern("server/discover")).json();
    expect(result.capabilities.tools).toEqual({ listChanged: false });
  });

  test("2025-era initialize says the same", async () => {
    const res = await fetch(srv.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0", id: 1, method: "initialize",
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
      }),
    });
    const [init] = messages(await res.text());
    expect(init.result.capabilities.tools).toEqual({ listChanged: false });
    await srv.deps.sessions.closeToken((await srv.deps.grants.findToken(token))!.id);
  });
});

describe("subscriptions/listen (2026-07-28)", () => {
  test("asking only for tool changes: acknowledged with nothing honoured, and the stream ends at once", async () => {
    const res = await modern("subscriptions/listen", { notifications: { toolsListChanged: true } });
    expect(res.status).toBe(200);
    // Before the fix this read never finished: the SDK held the stream open for changes that never come.
    const body = await Promise.race([res.text(), Bun.sleep(5_000).then(() => "still open after 5 s")]);
    const sent = messages(body);
    expect(sent[0]).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: {} } });
    expect(sent.at(-1)).toMatchObject({ id: 7, result: { resultType: "complete" } });
  });
});

test("each server owns its copy of the capabilities: the SDK's merging into one never reaches the constant", () => {
  const copy = ownCapabilities();
  expect(copy).toEqual(SERVER_CAPABILITIES);
  (copy.tools as { listChanged?: boolean }).listChanged = true;
  (copy as Record<string, unknown>).logging = {};
  expect(SERVER_CAPABILITIES.tools.listChanged).toBe(false);
  expect("logging" in SERVER_CAPABILITIES).toBe(false);
});
