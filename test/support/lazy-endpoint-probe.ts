// Run by test/mcp/lazy-endpoint.test.ts in a process of its own: builds the lazy MCP endpoint as
// src/service.ts does, reports whether the tool registry's module was loaded before and after one
// request (a call on a session that does not exist: answered 404 by the endpoint), as one JSON line.
import { join } from "node:path";
import { manualClock } from "../../src/clock.ts";
import { silentLogger } from "../../src/log.ts";
import { accountUnsealer, McpRuntime } from "../../src/mcp/runtime.ts";
import { lazyEndpoint } from "../../src/mcp/transport/lazy-endpoint.ts";
import { memoryStore } from "../../src/store/store.ts";

const tools = join(import.meta.dir, "..", "..", "src", "mcp", "tools", "index.ts");
const loaded = () => tools in require.cache;
const clock = manualClock();
const store = memoryStore(new Uint8Array(32), clock);
const runtime = new McpRuntime(store.sessions, accountUnsealer(store.grants), clock, silentLogger);
const sending = async () => (await import("../../src/mcp/send-gate/sending.ts")).buildSending(store, new Uint8Array(32), { perHour: 30, perDay: 200 }, clock);
const mcp = lazyEndpoint({ runtime, activity: store.activity, log: silentLogger, version: "0", clientId: "c", sending, baseUrl: "http://localhost", cursorKey: new Uint8Array(32) });
const atStart = loaded();
const request = new Request("http://localhost/mcp", { method: "POST", headers: { "mcp-session-id": "none" } });
const caller = { token: "t", tokenId: "id", grantId: "g", scopes: [], expiresAt: clock() + 60_000 };
const { status } = await mcp.answer(request, caller, { jsonrpc: "2.0", id: 1, method: "ping" });
process.stdout.write(JSON.stringify({ atStart, afterFirstRequest: loaded(), status }) + "\n");
await store.close();
