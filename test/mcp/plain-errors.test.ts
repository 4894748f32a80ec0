// Error texts say what was wrong in plain words, never the internals of the SDK, zod or imapflow
// (src/mcp/plain-errors.ts). Through the real server, the SDK client and raw JSON-RPC, against the
// harness Dovecot.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { MAX_JSON_DEPTH } from "../../src/mcp/transport/rpc-body.ts";
import { rpcMessages } from "../support/rpc-body.ts";
import { describeIssues, plainRpcError } from "../../src/mcp/plain-errors.ts";
import { getHarness } from "../support/harness.ts";
import { call, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

const INTERNALS = /MCP error|Invalid input|expected \w+, received|Too (small|big)|InvalidStringValue|Maximum call stack|RangeError|"expected":/;

let srv: TestServer;
let client: Client;
let token: string;

beforeAll(async () => {
  const h = await getHarness();
  srv = await startTestServer();
  token = await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port));
  client = await connectClient(srv.mcpUrl, token);
});
afterAll(async () => {
  await client.close();
  await srv.stop();
});

describe("tool errors", () => {
  test.each([
    ["get_email", { folder: "INBOX", uid: "abc" }, "Invalid arguments for get_email: uid must be a number."],
    ["get_email", { folder: "INBOX" }, "Invalid arguments for get_email: uid is required (a number)."],
    ["get_email", { folder: "INBOX", uid: -1 }, "Invalid arguments for get_email: uid must be more than 0."],
    ["get_recent_emails", { limit: 1000 }, "Invalid arguments for get_recent_emails: limit must be at most 100."],
    ["mark_as_read", { uids: [1.5] }, "Invalid arguments for mark_as_read: uids[0] must be a whole number."],
    ["send_email", { to: 5, subject: "x", text: "y" }, "Invalid arguments for send_email: to must be text or a list."],
  ])("%s %j → %s", async (name, args, text) => {
    const res = await call(client, name, args as Record<string, unknown>);
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(text);
  });

  test("an unknown tool: the SDK v2's JSON-RPC error -32602 naming it (v1 sent an isError result)", async () => {
    await expect(call(client, "nonexistent_tool", {})).rejects.toThrow(/-32602.*Tool nonexistent_tool not found/);
  });

  test("a line break in a folder name: what is wrong, not imapflow's code", async () => {
    const res = await call(client, "search_emails", { folder: "IN\nBOX", subject: "x" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("line break");
    expect(textOf(res)).not.toMatch(INTERNALS);
  });
});

describe("protocol errors", () => {
  async function rpc(body: string): Promise<{ status: number; text: string }> {
    const sid = (client.transport as unknown as { sessionId: string }).sessionId;
    const res = await fetch(srv.mcpUrl, {
      method: "POST", body,
      headers: {
        authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream",
        "mcp-session-id": sid, "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      },
    });
    return { status: res.status, text: await res.text() };
  }

  test("params of the wrong shape: -32602 in words, not a zod dump as an internal error", async () => {
    const { text } = await rpc(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}`);
    const [data] = rpcMessages(text);
    expect(data.error).toEqual({ code: -32602, message: "Invalid params: params.name must be text" });
  });

  test(`JSON nested deeper than ${MAX_JSON_DEPTH} levels is a parse error, not a stack overflow`, async () => {
    const deep = '{"a":'.repeat(200_000) + "1" + "}".repeat(200_000);
    const { status, text } = await rpc(`{"jsonrpc":"2.0","id":99,"result":${deep}}`);
    expect(status).toBe(400);
    expect(text).toContain("nests deeper");
    expect(text).not.toMatch(INTERNALS);
    // An ordinary message nests far less and passes.
    expect((await rpc(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":${'{"a":'.repeat(20)}1${"}".repeat(20)}}}`)).status).toBe(200);
  });
});

describe("describeIssues", () => {
  test("each kind of zod issue in words", () => {
    expect(describeIssues([
      { code: "invalid_value", values: ["a", "b"], path: ["mode"] },
      { code: "invalid_format", format: "email", path: ["to", 0] },
      { code: "too_small", origin: "string", minimum: 1, inclusive: true, path: ["subject"] },
      { code: "unrecognized_keys", keys: ["x", "y"], path: [] },
      { code: "custom", message: "must be a real calendar date (YYYY-MM-DD)", path: ["since"] },
    ])).toBe('mode must be one of "a", "b"; to[0] is not a valid email; subject must be at least 1 characters; ' +
      "unknown arguments x, y; since must be a real calendar date (YYYY-MM-DD)");
  });

  test("plainRpcError leaves other messages alone", () => {
    const other = { jsonrpc: "2.0" as const, id: 1, error: { code: -32601, message: "Method not found" } };
    expect(plainRpcError(other)).toBe(other);
  });
});
