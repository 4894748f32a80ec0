// Run by test/mcp/lazy-endpoint.test.ts in a process of its own: starts the service as src/main.ts
// does and reports, as one JSON line, whether the MCP SDK (and zod, which only it and the tools use)
// was loaded once the service was up and idle, and after one /mcp request (docs/performance.md "Idle memory").
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "../../src/log.ts";
import { startService } from "../../src/service.ts";
import { testConfig } from "./config.ts";
import { freePort } from "./ports.ts";

const loaded = (pkg: string) => Object.keys(require.cache).some((k) => k.includes(`/node_modules/${pkg}/`));
const dir = mkdtempSync(join(tmpdir(), "idle-sdk-"));
const port = await freePort();
const service = await startService(testConfig({ dataDir: dir, port, baseUrl: `http://localhost:${port}` }), silentLogger);
const atStart = { sdk: loaded("@modelcontextprotocol/server"), zod: loaded("zod") };
// Protected resource metadata and an unauthenticated /mcp answer: both without the SDK's help at start.
const prm = await fetch(`${service.url}/.well-known/oauth-protected-resource/mcp`);
const unauthenticated = await fetch(`${service.url}/mcp`, { method: "POST", body: "{}" });
const res = await fetch(`${service.url}/mcp`, { method: "POST", headers: { authorization: `Bearer ${"0".repeat(64)}` }, body: "{}" });
process.stdout.write(JSON.stringify({
  atStart, prm: prm.status, resource: (await prm.json()).resource, unauthenticated: unauthenticated.status,
  challenge: res.status, afterFirstRequest: { sdk: loaded("@modelcontextprotocol/server") },
}) + "\n");
await service.stop();
rmSync(dir, { recursive: true, force: true });
