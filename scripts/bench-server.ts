// The server process for `bun run bench`: the real app (routes, MCP runtime, sweeper) on a free
// port with a store file in a temp dir, opened as src/service.ts does, so its RSS and CPU are the
// server's alone. Reads MailAccounts as JSON from argv[2], issues one token per account through the
// real store path, prints {port, tokens} as one JSON line on stdout, then serves until killed. With a
// postgres:// URL in argv[3] the store is that database instead (several such processes share it);
// argv[4] = "reuse" takes the tokens from argv[5] (JSON) instead of issuing new ones (a second
// instance on the same store). Each line "cpu" on stdin is answered with one JSON line of
// process.cpuUsage() (µs of user and system time so far), for the bench's CPU-per-call row.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/http/app.ts";
import { serve } from "../src/http/serve.ts";
import { silentLogger } from "../src/log.ts";
import type { MailAccount } from "../src/mail/account.ts";
import { verifyLogin } from "../src/mail/imap/verify.ts";
import { McpEndpoint } from "../src/mcp/transport/endpoint.ts";
import { accountUnsealer, McpRuntime, startMcpSweeper } from "../src/mcp/runtime.ts";
import { ClientRegistry } from "../src/oauth/protocol/clients.ts";
import { CLIENT_IDLE_MS } from "../src/oauth/protocol/registration.ts";
import { TokenEvents } from "../src/oauth/lifecycle/token-events.ts";
import { openStore } from "../src/store/store.ts";
import { systemClock } from "../src/clock.ts";
import { testConfig } from "../test/support/app.ts";
import { freePort } from "../test/support/ports.ts";
import { buildSending } from "../src/mcp/send-gate/sending.ts";
import { issueTestToken } from "../test/support/token.ts";
import { OAuthProviders } from "../src/mail/providers/oauth/registry.ts";

const accounts = JSON.parse(process.argv[2] ?? "[]") as MailAccount[];
const port = await freePort();
// The send caps (30 an hour by default) would refuse the send_email row's hundreds of sends.
const config = testConfig({ baseUrl: `http://localhost:${port}`, port, sendLimits: { perHour: 100_000, perDay: 100_000 } });
// A store like the service's (src/service.ts): a SQLite file with session rows on their own connection, or Postgres.
const dir = mkdtempSync(join(tmpdir(), "mailbox-mcp-bench-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => process.exit(0));
const databaseUrl = process.argv[3] || null;
const store = await openStore({
  databaseUrl, sqlitePath: join(dir, "store.sqlite"), masterKey: config.secretKey, clock: systemClock, clientIdleMs: CLIENT_IDLE_MS,
});
const clients = new ClientRegistry(config, store.clients);
const runtime = new McpRuntime(store.sessions, accountUnsealer(store.grants), systemClock, silentLogger, { answers: store.sessionAnswers });
startMcpSweeper(runtime);
const events = new TokenEvents();
events.onRevoked((tokenId) => runtime.revoke(tokenId));
const sending = buildSending(store, config.secretKey, config.sendLimits, systemClock);
const mcp = new McpEndpoint({ runtime, activity: store.activity, log: silentLogger, version: config.version, clientId: config.clientId, sending, baseUrl: config.baseUrl });
const providers = new OAuthProviders(config.oauth);
const app = createApp({ config, store, clients, clock: systemClock, log: silentLogger, events, verifyLogin, mcp, providers });
serve(app, { hostname: "127.0.0.1", port, log: silentLogger });
const tokens: string[] = [];
if (process.argv[4] === "reuse") tokens.push(...(JSON.parse(process.argv[5] ?? "[]") as string[]));
else for (const account of accounts) tokens.push(await issueTestToken(store, account));
process.stdout.write(JSON.stringify({ port, tokens }) + "\n");

// The bench's CPU row asks for our own CPU time: only this process knows it (process.cpuUsage).
let pending = "";
process.stdin.on("data", (chunk: Buffer) => {
  pending += chunk.toString();
  for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
    const line = pending.slice(0, nl).trim();
    pending = pending.slice(nl + 1);
    if (line === "cpu") process.stdout.write(JSON.stringify(process.cpuUsage()) + "\n");
  }
});
