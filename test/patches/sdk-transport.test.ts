// The MCP server SDK's transports as patched for the MCP floor (docs/performance.md "The MCP floor"):
// the sessionful transport decides once per message whether it is a request and once per answer
// whether it is a response; a 2026-07-28 request the entry's classifier found to be a request, and a
// result response the protocol built itself, are not parsed again. Nothing a client sees may change:
// each exchange below is played against the unpatched SDK and the patched one, and must read alike.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { unpatchedCopy, type UnpatchedCopy } from "../support/unpatched.ts";

type Sdk = typeof import("@modelcontextprotocol/server");
let copy: UnpatchedCopy;
let unpatched: Sdk;
let patched: Sdk;

beforeAll(async () => {
  copy = unpatchedCopy("@modelcontextprotocol/server");
  unpatched = await import(join(copy.dir, "dist/index.mjs"));
  patched = await import(join(copy.installedDir, "dist/index.mjs"));
});
afterAll(() => copy?.remove());

const V2025 = "2025-11-25";
const V2026 = "2026-07-28";

function server(sdk: Sdk) {
  const s = new sdk.McpServer({ name: "t", version: "0" });
  s.registerTool("echo", { description: "echo" }, async () => ({ content: [{ type: "text", text: "hi →" }], structuredContent: { n: 1 } }));
  s.registerTool("meta", { description: "a result with _meta" }, async () => ({ content: [], _meta: { note: "x" } }));
  return s;
}

/** What a client reads of an answer: status, type, and the JSON-RPC messages in it (SSE events or a JSON body). */
async function read(res: Response) {
  const text = await res.text();
  const type = res.headers.get("content-type");
  const messages = type?.includes("text/event-stream")
    ? text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6).map((l) => JSON.parse(l.slice(6)))
    : text ? [JSON.parse(text)] : [];
  return { status: res.status, type, messages };
}

/** A 2025-era session on `sdk`, and the answers to `bodies` posted in turn. */
async function session(sdk: Sdk, bodies: unknown[]) {
  const transport = new sdk.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => "s-1" });
  const mcp = server(sdk);
  await mcp.connect(transport);
  const post = (body: unknown) => transport.handleRequest(new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json", accept: "application/json, text/event-stream",
      ...(transport.sessionId ? { "mcp-session-id": transport.sessionId, "mcp-protocol-version": V2025 } : {}),
    },
    body: JSON.stringify(body),
  }), { parsedBody: body });
  await read(await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: V2025, capabilities: {}, clientInfo: { name: "c", version: "0" } } }));
  await read(await post({ jsonrpc: "2.0", method: "notifications/initialized" }));
  const answers = [];
  for (const body of bodies) answers.push(await read(await post(body)));
  await mcp.close();
  return answers;
}

test("2025-era sessions: requests, notifications, batches and refusals read as with the unpatched SDK", async () => {
  const bodies = [
    { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: {} } },
    { jsonrpc: "2.0", id: "m", method: "tools/call", params: { name: "meta", arguments: {} } },
    { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } },
    [{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 98 } }, { jsonrpc: "2.0", id: "a", method: "ping" },
      { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "echo", arguments: {} } }],
    { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "nope", arguments: {} } },
    { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: 5 } },
    { jsonrpc: "2.0", id: 1, method: 5 },
    { jsonrpc: "2.0", id: 10, result: {} },
  ];
  const before = await session(unpatched, bodies);
  const after = await session(patched, bodies);
  expect(after).toEqual(before);
  expect(after[0]!.messages).toEqual([{ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "hi →" }], structuredContent: { n: 1 } } }]);
  expect(after[2]!.status).toBe(202);
});

/** A 2026-07-28 exchange on `sdk`'s per-request handler. */
async function modern(sdk: Sdk, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const handler = sdk.createMcpHandler(() => server(sdk), { legacy: "reject" });
  const res = await handler.fetch(new Request("http://localhost/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": V2026, ...headers },
    body: JSON.stringify(body),
  }), { parsedBody: body });
  const answer = await read(res);
  // serverInfo names the SDK build; the rest must match.
  for (const m of answer.messages) delete m?.result?._meta?.["io.modelcontextprotocol/serverInfo"];
  return answer;
}

test("2026-07-28 requests read as with the unpatched SDK", async () => {
  const meta = { "io.modelcontextprotocol/protocolVersion": V2026, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "c", version: "0" } };
  const call = (id: unknown, name: unknown, extra: Record<string, unknown> = {}) =>
    ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, _meta: meta, ...extra } });
  const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
    [call(1, "echo"), { "mcp-method": "tools/call", "mcp-name": "echo" }],
    [call("x", "meta"), { "mcp-method": "tools/call", "mcp-name": "meta" }],
    [call(2, "nope"), { "mcp-method": "tools/call", "mcp-name": "nope" }],
    [call(3, "echo"), { "mcp-method": "tools/call", "mcp-name": "other" }],
    [{ jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: meta } }, { "mcp-method": "tools/list" }],
    [{ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: 5, _meta: meta } }, { "mcp-method": "tools/call" }],
  ];
  for (const [body, headers] of cases) {
    const before = await modern(unpatched, structuredClone(body), headers);
    const after = await modern(patched, structuredClone(body), headers);
    expect({ body, answer: after }).toEqual({ body, answer: before });
  }
});

// The protocol marks the result responses it builds as valid without a zod parse (isBuiltResult in the
// patched file). Its verdict may only ever say "valid" where the SDK's schema says so too: checked on
// generated results and ids, the function taken from the installed file.
test("isBuiltResult says valid only where JSONRPCResultResponseSchema does", async () => {
  const { JSONRPCResultResponseSchema } = await import("@modelcontextprotocol/core/internal");
  const dist = await Bun.file(join(copy.installedDir, "dist/src-DdvbAHrR.mjs")).text();
  const source = /function isBuiltResult\(result, id\) \{[\s\S]*?\n\}/.exec(dist)?.[0];
  expect(source).toBeDefined();
  const isBuiltResult = new Function(`${source}; return isBuiltResult;`)() as (result: unknown, id: unknown) => boolean;
  const values: unknown[] = [undefined, null, 0, 1.5, -3, "", "x", true, [], [1], {}, { a: 1 }, new Date(0), Number.MAX_SAFE_INTEGER + 2, NaN];
  const metas: unknown[] = [undefined, null, 1, "m", [], {}, { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } }, { "io.modelcontextprotocol/serverInfo": 5 }];
  let fast = 0;
  for (const result of [...values, ...metas.map((m) => ({ content: [], _meta: m })), ...metas.map((m) => ({ _meta: m }))]) {
    for (const id of [...values, 7, "id-1", 2 ** 60]) {
      if (!isBuiltResult(result, id)) continue;
      fast++;
      expect({ result, id, valid: JSONRPCResultResponseSchema.safeParse({ result, jsonrpc: "2.0", id }).success }).toEqual({ result, id, valid: true });
    }
  }
  expect(fast).toBeGreaterThan(20);
});
