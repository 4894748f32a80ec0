// Our patch of the SDK's sessionful transport (patches/@modelcontextprotocol%2Fserver@2.4.0.patch) decides
// once per message whether it is a request, and once per outgoing message whether it is a response,
// where the SDK asked the same zod question several times. What the transport answers must not
// change: requests get their answers on one SSE stream, notifications alone get 202, a batch mixing
// both answers its request, and an invalid message is still refused.
import { describe, expect, test } from "bun:test";
import { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

const VERSION = "2025-11-25";

async function session() {
  const server = new McpServer({ name: "t", version: "0" });
  server.registerTool("echo", { description: "echo" }, async () => ({ content: [{ type: "text", text: "hi" }] }));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => "s-1" });
  await server.connect(transport);
  const post = (body: unknown) => transport.handleRequest(new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json", accept: "application/json, text/event-stream",
      ...(transport.sessionId ? { "mcp-session-id": transport.sessionId, "mcp-protocol-version": VERSION } : {}),
    },
    body: JSON.stringify(body),
  }), { parsedBody: body });
  const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "c", version: "0" } } });
  await init.text();
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" })).text();
  return { post, close: () => server.close() };
}

const events = (text: string) => text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6).map((l) => JSON.parse(l.slice(6)));

describe("the sessionful transport, patched", () => {
  test("a request is answered on its SSE stream", async () => {
    const s = await session();
    const res = await s.post({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: {} } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(events(await res.text())).toEqual([{ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "hi" }] } }]);
    await s.close();
  });

  test("a notification alone is accepted with 202 and no body", async () => {
    const s = await session();
    const res = await s.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
    await s.close();
  });

  test("a batch of a notification and two requests answers both requests", async () => {
    const s = await session();
    const res = await s.post([
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } },
      { jsonrpc: "2.0", id: "a", method: "ping" },
      { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "echo", arguments: {} } },
    ]);
    expect(res.status).toBe(200);
    const answers = events(await res.text());
    expect(answers.map((a) => a.id).sort()).toEqual(["a", "b"]);
    expect(answers.find((a) => a.id === "a")).toEqual({ jsonrpc: "2.0", id: "a", result: {} });
    await s.close();
  });

  test("a message that is no JSON-RPC message is still refused", async () => {
    const s = await session();
    const res = await s.post({ jsonrpc: "2.0", id: 1, method: 5 });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32700);
    await s.close();
  });
});

// The protocol marks the result responses it builds as valid without a zod parse (isBuiltResult in the
// patched dist file). Its verdict may only ever say "valid" where the SDK's schema says so too: checked
// here against that schema on generated results and ids, the function taken from the installed file.
describe("isBuiltResult agrees with JSONRPCResultResponseSchema", () => {
  test("on generated results and ids", async () => {
    const { JSONRPCResultResponseSchema } = await import("@modelcontextprotocol/core/internal");
    const dist = await Bun.file(require.resolve("@modelcontextprotocol/server").replace(/index\.c?js$/, "src-DdvbAHrR.mjs")).text();
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
});
