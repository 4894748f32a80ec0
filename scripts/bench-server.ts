// The server process for `bun run bench`: the real app (routes, MCP runtime, sweeper) on a free
// port with an in-memory store, so its RSS is the server's alone. Reads MailAccounts as JSON from
// argv[2], issues one token per account through the real store path, prints {port, tokens} as one
// JSON line on stdout, then serves until killed. With a postgres:// URL in argv[3] the store is that
// database instead (the Postgres rows; several such processes share it); argv[4] = "reuse" takes the
// tokens from argv[5] (JSON) instead of issuing new ones (a second instance on the same store).
import { createApp } from "../src/http/app.ts";
import { serve } from "../src/http/serve.ts";
import { silentLogger } from "../src/log.ts";
import type { MailAccount } from "../src/mail/types.ts";
import { createMcpRuntime, startMcpSweeper } from "../src/mcp/runtime.ts";
import { TokenEvents } from "../src/oauth/token-events.ts";
import { openStore } from "../src/store/store.ts";
import { systemClock } from "../src/clock.ts";
import { testConfig } from "../test/support/app.ts";
import { freePort } from "../test/support/ports.ts";
import { issueTestToken } from "../test/support/token.ts";

const accounts = JSON.parse(process.argv[2] ?? "[]") as MailAccount[];
const port = await freePort();
const config = testConfig({ baseUrl: `http://localhost:${port}`, port });
const databaseUrl = process.argv[3] || null;
const store = await openStore({ databaseUrl, sqlitePath: ":memory:", masterKey: config.secretKey, clock: systemClock });
const runtime = createMcpRuntime(systemClock, silentLogger);
startMcpSweeper(runtime, silentLogger);
const app = createApp({ config, store, clock: systemClock, log: silentLogger, events: new TokenEvents(), ...runtime });
serve(app, { hostname: "127.0.0.1", port, log: silentLogger });
const tokens: string[] = [];
if (process.argv[4] === "reuse") tokens.push(...(JSON.parse(process.argv[5] ?? "[]") as string[]));
else for (const account of accounts) tokens.push(await issueTestToken(store, account));
process.stdout.write(JSON.stringify({ port, tokens }) + "\n");
