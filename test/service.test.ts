// The service (src/composition.ts through src/service.ts startService) hands MAILBOX_MCP_IMAP_MAX_CONNECTIONS to the IMAP pool, and
// sizes the pool from the machine when it is unset (src/mail/imap/pool-size.ts).
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "../src/log.ts";
import { defaultMaxConnections, machineLimits } from "../src/mail/imap/pool-size.ts";
import { startService, type Service } from "../src/service.ts";
import { testConfig } from "./support/app.ts";
import { freePort } from "./support/ports.ts";

const running: Array<{ service: Service; dir: string }> = [];
afterEach(async () => {
  for (const { service, dir } of running.splice(0)) {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function start(imapMaxConnections: number | null): Promise<Service> {
  const dir = mkdtempSync(join(tmpdir(), "mailbox-mcp-service-"));
  const port = await freePort();
  const service = await startService(testConfig({ dataDir: dir, port, baseUrl: `http://localhost:${port}`, imapMaxConnections }), silentLogger);
  running.push({ service, dir });
  return service;
}

test("the IMAP pool's cap is the configured one", async () => {
  expect((await start(1500)).imapMaxConnections).toBe(1500);
});

test("unset, the cap is what this machine can hold", async () => {
  expect((await start(null)).imapMaxConnections).toBe(defaultMaxConnections(machineLimits()));
});
