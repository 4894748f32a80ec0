// Run by test/mcp/lazy-endpoint.test.ts in a process of its own: builds the service's graph as
// src/service.ts does (src/composition.ts buildService), reports whether the tool registry's module was
// loaded before and after one request (a call on a session that does not exist: answered 404 by the
// endpoint), as one JSON line.
import { join } from "node:path";
import { manualClock } from "../../src/clock.ts";
import { buildService } from "../../src/composition.ts";
import { memoryStore } from "../../src/store/store.ts";
import { testConfig } from "./config.ts";

const tools = join(import.meta.dir, "..", "..", "src", "mcp", "tools", "index.ts");
const loaded = () => tools in require.cache;
const clock = manualClock();
const config = testConfig();
const store = memoryStore(config.secretKey, clock);
const { mcp } = buildService(config, store, { clock });
const atStart = loaded();
const request = new Request("http://localhost/mcp", { method: "POST", headers: { "mcp-session-id": "none" } });
const caller = { token: "t", tokenId: "id", grantId: "g", scopes: [], expiresAt: clock() + 60_000 };
const { status } = await mcp.answer(request, caller, { jsonrpc: "2.0", id: 1, method: "ping" });
process.stdout.write(JSON.stringify({ atStart, afterFirstRequest: loaded(), status }) + "\n");
await store.close();
