// The server process for `bun run bench`: the real app (routes, MCP runtime, sweeper) on a free
// port with a store file in a temp dir, opened as src/service.ts does, so its RSS and CPU are the
// server's alone. Reads MailAccounts as JSON from argv[2] (or from the file named by "@path", for
// more than fit an argument), issues one token per account through the real store path, prints
// {port, tokens} as one JSON line on stdout, then serves until killed. With a postgres:// URL in
// argv[3] the store is that database instead (several such processes share it); argv[4] = "reuse"
// takes the tokens from argv[5] (JSON) instead of issuing new ones (a second instance on the same
// store). MAILBOX_MCP_IMAP_MAX_CONNECTIONS is read as the service reads it; BENCH_IMAP_IDLE_MS
// shortens the pool's 5 idle minutes (the many-mailbox row). Each line on stdin is a question
// answered with one JSON line: "cpu" process.cpuUsage() (µs of user and system time so far), "mem"
// RSS and heap after a full GC, "pool" the IMAP pool's counters, "sweep" runs the sweeper now, "lag"
// the event loop's worst delay since the last "lag". BENCH_CONNECTION_SIZE=n issues one token per n
// accounts instead, each a connection of those n mailboxes (the several-mailbox rows).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildService } from "../src/composition.ts";
import { serve } from "../src/http/serve.ts";
import { silentLogger } from "../src/log.ts";
import { releaseStartupMemory } from "../src/service.ts";
import type { MailAccount } from "../src/mail/account.ts";
import { startMcpSweeper } from "../src/mcp/runtime.ts";
import { CLIENT_IDLE_MS } from "../src/oauth/protocol/registration.ts";
import { openStore } from "../src/store/store.ts";
import { systemClock } from "../src/clock.ts";
import { parseSettings } from "../src/config.ts";
import { testConfig } from "../test/support/config.ts";
import { freePort } from "../test/support/ports.ts";
import { issueTestConnection, issueTestToken } from "../test/support/token.ts";

const arg = process.argv[2] ?? "[]";
const accounts = JSON.parse(arg.startsWith("@") ? readFileSync(arg.slice(1), "utf8") : arg) as MailAccount[];
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
const { imapMaxConnections } = parseSettings([], process.env);
const pool = process.env.BENCH_IMAP_IDLE_MS ? { idleMs: Number(process.env.BENCH_IMAP_IDLE_MS) } : {};
// The service's own graph (src/composition.ts), with the sweeper the service runs.
const { app, runtime } = buildService({ ...config, imapMaxConnections }, store, { clock: systemClock, log: silentLogger, pool });
startMcpSweeper(runtime);
serve(app, { hostname: "127.0.0.1", port, log: silentLogger });
const tokens: string[] = [];
if (process.argv[4] === "reuse") tokens.push(...(JSON.parse(process.argv[5] ?? "[]") as string[]));
else if (process.env.BENCH_CONNECTION_SIZE) {
  const n = Number(process.env.BENCH_CONNECTION_SIZE);
  for (let i = 0; i < accounts.length; i += n) {
    tokens.push((await issueTestConnection(store, accounts.slice(i, i + n).map((account) => ({ account })))).token);
  }
} else for (const account of accounts) tokens.push(await issueTestToken(store, account));
releaseStartupMemory(); // as src/service.ts does once serving
process.stdout.write(JSON.stringify({ port, tokens }) + "\n");

// Event-loop lag: how late a 20 ms timer fires, the worst since the last "lag" question.
let lagMax = 0;
let expected = performance.now() + 20;
setInterval(() => {
  const now = performance.now();
  lagMax = Math.max(lagMax, now - expected);
  expected = now + 20;
}, 20).unref();

// The bench asks what only this process knows: its CPU time, its memory, its pool, its lag.
const answers: Record<string, () => unknown> = {
  lag: () => {
    const max = lagMax;
    lagMax = 0;
    return { max };
  },
  cpu: () => process.cpuUsage(),
  mem: () => {
    Bun.gc(true);
    return { rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed };
  },
  pool: () => runtime.mail.imap.stats(),
  sweep: () => (runtime.sweep(), {}),
};
let pending = "";
process.stdin.on("data", (chunk: Buffer) => {
  pending += chunk.toString();
  for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
    const line = pending.slice(0, nl).trim();
    pending = pending.slice(nl + 1);
    const answer = answers[line];
    if (answer) process.stdout.write(JSON.stringify(answer()) + "\n");
  }
});
