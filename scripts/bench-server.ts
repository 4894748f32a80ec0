// The server process for `bun run bench`: the real app (routes, MCP runtime, sweeper) on a free
// port with an in-memory store, so its RSS is the server's alone. Reads MailAccounts as JSON from
// argv[2], issues one token per account through the real store path, prints {port, tokens} as one
// JSON line on stdout, then serves until killed.
import { createApp } from "../src/http/app.ts";
import { serve } from "../src/http/serve.ts";
import { silentLogger } from "../src/log.ts";
import type { MailAccount } from "../src/mail/types.ts";
import { createMcpRuntime, startMcpSweeper } from "../src/mcp/runtime.ts";
import { ClientRegistry } from "../src/oauth/clients.ts";
import { CLIENT_IDLE_MS } from "../src/oauth/registration.ts";
import { TokenEvents } from "../src/oauth/token-events.ts";
import { ClientStore } from "../src/store/clients.ts";
import { openDatabase } from "../src/store/db.ts";
import { ActivityLog } from "../src/store/activity.ts";
import { GrantStore } from "../src/store/grants.ts";
import { systemClock } from "../src/clock.ts";
import { testConfig } from "../test/support/app.ts";
import { freePort } from "../test/support/ports.ts";
import { issueTestToken } from "../test/support/token.ts";

const accounts = JSON.parse(process.argv[2] ?? "[]") as MailAccount[];
const port = await freePort();
const config = testConfig({ baseUrl: `http://localhost:${port}`, port });
const db = openDatabase(":memory:");
const grants = new GrantStore(db, config.secretKey, systemClock);
const clients = new ClientRegistry(config, new ClientStore(db, systemClock, CLIENT_IDLE_MS));
const activity = new ActivityLog(db, config.secretKey, systemClock);
const runtime = createMcpRuntime(systemClock, silentLogger);
startMcpSweeper(runtime, silentLogger);
const app = createApp({ config, grants, clients, activity, clock: systemClock, log: silentLogger, events: new TokenEvents(), ...runtime });
serve(app, { hostname: "127.0.0.1", port, log: silentLogger });
const tokens: string[] = [];
for (const account of accounts) tokens.push(await issueTestToken({ grants }, account));
process.stdout.write(JSON.stringify({ port, tokens }) + "\n");
