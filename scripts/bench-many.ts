// `bun run bench`, a thousand mailboxes on one instance (issue 25): a Dovecot of its own with 1,000
// users (test/support/dovecot.ts extraUsers, 20 messages each), one server holding a token per
// mailbox, and per mailbox a 2026-07-28 client (no MCP session: the memory measured is the mail
// connection's) calling get_recent_emails(20) every 10-30 s. Printed:
//   - the same call on 10 mailboxes (each every 1-3 s, for enough samples): p50/p95, server CPU per call;
//   - 1,000 mailboxes once all are connected: calls, errors, p50/p95 (target p95 <= x1.5 of 10),
//     server CPU per call, server memory per open connection (RSS after a full GC, 1,000 open minus
//     10 open; target <= 150 KB), and what the pool did meanwhile (logins, evictions, idle closes);
//   - idle closing: the callers stop, and after the idle time (45 s here, 5 minutes by default) the
//     sweep closes every connection;
//   - the same load with the cap at half the mailboxes: what each eviction costs (logins per call);
//   - 1,000 connections of 3 mailboxes each (issue 42; 3,000 users of the same Dovecot): each caller's
//     get_recent_emails(20) spans its three mailboxes, so three pooled connections per caller; calls,
//     errors, p50/p95, and server memory per open mailbox connection (target <= 150 KB, as above).
// BENCH_MANY (connections, 1000), BENCH_MANY_SECONDS (the measured window, 120) change the run;
// BENCH_MANY_ROWS=several runs the several-mailbox row alone.
import { startDovecot, type DovecotServer, type MailUser } from "../test/support/dovecot.ts";
import * as fx from "../test/support/mail-fixtures.ts";
import { testAccount } from "../test/support/token.ts";
import { modernCaller, ms, pct, startServer, verdict, type McpCaller, type ServerProc } from "./bench-lib.ts";

const N = Number(process.env.BENCH_MANY ?? 1000);
const SECONDS = Number(process.env.BENCH_MANY_SECONDS ?? 120);
const FEW = 10;
const IDLE_MS = 45_000;
const RAMP_S = 30;

interface Sample { start: number; ms: number; ok: boolean }

/** Each caller in a loop: a first call within `rampS`, then one every `every` seconds (uniform). */
class Load {
  readonly samples: Sample[] = [];
  private running = true;
  private wake!: () => void;
  /** Resolves on stop(): a pause ends at once, without a timer tick per caller meanwhile. */
  private readonly stopped = new Promise<void>((resolve) => { this.wake = resolve; });
  private readonly loops: Promise<void>[];

  constructor(callers: McpCaller[], every: [number, number], rampS: number) {
    this.loops = callers.map((c) => this.loop(c, every, rampS));
  }

  private async loop(c: McpCaller, [lo, hi]: [number, number], rampS: number): Promise<void> {
    await Promise.race([Bun.sleep(Math.random() * rampS * 1000), this.stopped]);
    while (this.running) {
      const start = performance.now();
      const ok = await c.call("get_recent_emails", { folder: "INBOX", limit: 20 }).then(() => true, (err: Error) => {
        if (this.samples.filter((s) => !s.ok).length < 3) console.log(`  error: ${err.message.slice(0, 200)}`);
        return false;
      });
      this.samples.push({ start, ms: performance.now() - start, ok });
      await Promise.race([Bun.sleep((lo + Math.random() * (hi - lo)) * 1000), this.stopped]);
    }
  }

  since(t: number): Sample[] {
    return this.samples.filter((s) => s.start >= t);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await Promise.all(this.loops);
  }
}

/** p50/p95 of the successful calls, the errors, and the server's CPU per call over the window. */
async function measure(server: ServerProc, load: Load, seconds: number) {
  const cpu0 = await server.cpuMicros();
  const pool0 = await server.pool();
  await server.lag();
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  await Bun.sleep(seconds * 1000);
  const cpu = (await server.cpuMicros()) - cpu0;
  const own = process.cpuUsage(own0);
  const lag = await server.lag();
  const pool = await server.pool();
  const taken = load.since(t0).filter((s) => s.start + s.ms <= performance.now());
  const times = taken.filter((s) => s.ok).map((s) => s.ms).sort((a, b) => a - b);
  return {
    calls: taken.length, errors: taken.filter((s) => !s.ok).length, p50: pct(times, 0.5), p95: pct(times, 0.95),
    cpuPerCall: cpu / 1000 / Math.max(1, taken.length),
    logins: pool.opened - pool0.opened, evicted: pool.evicted - pool0.evicted, idleClosed: pool.idleClosed - pool0.idleClosed,
    lag, clientCpu: (own.user + own.system) / 1000 / (seconds * 1000),
  };
}

async function waitOpen(server: ServerProc, open: number, timeoutS: number): Promise<number> {
  const until = performance.now() + timeoutS * 1000;
  let now = (await server.pool()).open;
  while (now < open && performance.now() < until) {
    await Bun.sleep(500);
    now = (await server.pool()).open;
  }
  return now;
}

async function seedAll(dovecot: DovecotServer): Promise<void> {
  const t = performance.now();
  const users = dovecot.extraUsers;
  for (let i = 0; i < users.length; i += 25) {
    await Promise.all(users.slice(i, i + 25).map((u) => dovecot.seedBulk(u.email, "INBOX", 20, (k) => fx.plainText({ subject: `Note ${k} for ${u.user}` }, `Message ${k}.\n`))));
  }
  console.log(`  seeded ${users.length} mailboxes x 20 messages in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

const line = (label: string, w: Awaited<ReturnType<typeof measure>>) =>
  `  ${label.padEnd(34)} ${String(w.calls).padStart(6)} calls, ${w.errors} errors, p50 ${ms(w.p50)} ms, p95 ${ms(w.p95)} ms, ` +
  `server CPU ${w.cpuPerCall.toFixed(3)} ms per call, worst event-loop delay ${w.lag.toFixed(0)} ms; logins ${w.logins}, evicted ${w.evicted}, ` +
  `idle-closed ${w.idleClosed} (the bench's own clients used ${(w.clientCpu * 100).toFixed(0)}% of a core)`;

/** The server holding every mailbox's token; `cap` overrides the pool's default size. */
function serverFor(users: MailUser[], dovecot: DovecotServer, cap: number | null): Promise<ServerProc> {
  const env: Record<string, string> = { BENCH_IMAP_IDLE_MS: String(IDLE_MS) };
  if (cap !== null) env.MAILBOX_MCP_IMAP_MAX_CONNECTIONS = String(cap);
  return startServer(users.map((u) => testAccount(u, dovecot)), { env });
}

async function fullRun(users: MailUser[], dovecot: DovecotServer): Promise<void> {
  const server = await serverFor(users, dovecot, null);
  try {
    const url = `http://localhost:${server.port}/mcp`;
    const callers = server.tokens.map((t) => modernCaller(url, t));
    // Warm-up (JIT, logins, the folder's first SELECT), so that the first window does not pay for it.
    for (let i = 0; i < 50; i++) await Promise.all(callers.slice(0, FEW).map((c) => c.call("get_recent_emails", { folder: "INBOX", limit: 20 })));
    const few = new Load(callers.slice(0, FEW), [1, 3], 0);
    await waitOpen(server, FEW, 30);
    const small = await measure(server, few, Math.min(60, SECONDS));
    await few.stop();
    const mem10 = await server.memory();
    console.log(line(`${FEW} mailboxes, every 1-3 s`, small));
    const all = new Load(callers, [10, 30], RAMP_S);
    const open = await waitOpen(server, users.length, RAMP_S + 60);
    const big = await measure(server, all, SECONDS);
    const mem = await server.memory();
    const pool = await server.pool();
    console.log(line(`${users.length} mailboxes, every 10-30 s`, big) + `  ${verdict(big.errors === 0 && big.p95 <= 1.5 * small.p95)}`);
    console.log(`  p95 x${(big.p95 / small.p95).toFixed(2)} of ${FEW} mailboxes (target <= 1.5); ${open} connections open once ramped up, ${pool.open} at the end (cap ${pool.max}, auto)`);
    const perConnection = (mem.rss - mem10.rss) / Math.max(1, pool.open - FEW) / 1024;
    console.log(`  server RSS after a full GC: ${(mem10.rss / 2 ** 20).toFixed(1)} MB with ${FEW} connections, ${(mem.rss / 2 ** 20).toFixed(1)} MB with ${pool.open}: ` +
      `${perConnection.toFixed(0)} KB per open connection (JS heap ${((mem.heap - mem10.heap) / Math.max(1, pool.open - FEW) / 1024).toFixed(0)} KB)  ${verdict(perConnection <= 150)}`);
    await all.stop();
    const t = performance.now();
    await Bun.sleep(IDLE_MS + 1000);
    await server.sweep();
    const after = await server.pool();
    const memAfter = await server.memory();
    console.log(`  idle closing (after ${IDLE_MS / 1000} s here, 5 minutes by default): ${after.idleClosed - pool.idleClosed} closed by the sweep ` +
      `${((performance.now() - t) / 1000).toFixed(0)} s after the last calls, ${after.open} left open; RSS ${(memAfter.rss / 2 ** 20).toFixed(1)} MB`);
  } finally {
    server.kill();
  }
}

/** The same load with the pool capped at half the mailboxes: every call past the cap evicts and logs in. */
async function cappedRun(users: MailUser[], dovecot: DovecotServer): Promise<void> {
  const cap = Math.floor(users.length / 2);
  const server = await serverFor(users, dovecot, cap);
  try {
    const url = `http://localhost:${server.port}/mcp`;
    const load = new Load(server.tokens.map((t) => modernCaller(url, t)), [10, 30], RAMP_S);
    await waitOpen(server, cap, RAMP_S + 30);
    await Bun.sleep(RAMP_S * 1000); // every mailbox has made its first call
    const w = await measure(server, load, SECONDS / 2);
    await load.stop();
    console.log(line(`cap ${cap} (MAILBOX_MCP_IMAP_MAX_CONNECTIONS)`, w) + `; ${(w.logins / Math.max(1, w.calls)).toFixed(2)} logins per call`);
  } finally {
    server.kill();
  }
}

/** Connections of several mailboxes: each token holds SIZE of them, and each call spans them all. */
const SIZE = 3;

async function severalRun(users: MailUser[], dovecot: DovecotServer): Promise<void> {
  const server = await startServer(users.map((u) => testAccount(u, dovecot)), { env: { BENCH_IMAP_IDLE_MS: String(IDLE_MS), BENCH_CONNECTION_SIZE: String(SIZE) } });
  try {
    const url = `http://localhost:${server.port}/mcp`;
    const callers = server.tokens.map((t) => modernCaller(url, t));
    for (let i = 0; i < 20; i++) await Promise.all(callers.slice(0, FEW).map((c) => c.call("get_recent_emails", { folder: "INBOX", limit: 20 })));
    const few = new Load(callers.slice(0, FEW), [1, 3], 0);
    await waitOpen(server, FEW * SIZE, 30);
    const small = await measure(server, few, Math.min(60, SECONDS));
    await few.stop();
    const mem10 = await server.memory();
    const open10 = (await server.pool()).open;
    console.log(line(`${FEW} connections x ${SIZE}, every 1-3 s`, small));
    const all = new Load(callers, [10, 30], RAMP_S);
    const open = await waitOpen(server, users.length, RAMP_S + 90);
    const big = await measure(server, all, SECONDS);
    const mem = await server.memory();
    const pool = await server.pool();
    console.log(line(`${callers.length} connections x ${SIZE}, every 10-30 s`, big) + `  ${verdict(big.errors === 0)}`);
    console.log(`  ${open} mailbox connections open once ramped up, ${pool.open} at the end (cap ${pool.max}, auto); p95 x${(big.p95 / small.p95).toFixed(2)} of ${FEW} connections`);
    const perConnection = (mem.rss - mem10.rss) / Math.max(1, pool.open - open10) / 1024;
    console.log(`  server RSS after a full GC: ${(mem10.rss / 2 ** 20).toFixed(1)} MB with ${open10} mailbox connections, ${(mem.rss / 2 ** 20).toFixed(1)} MB with ${pool.open}: ` +
      `${perConnection.toFixed(0)} KB per open mailbox connection (JS heap ${((mem.heap - mem10.heap) / Math.max(1, pool.open - open10) / 1024).toFixed(0)} KB)  ${verdict(perConnection <= 150)}`);
    await all.stop();
  } finally {
    server.kill();
  }
}

export async function manyRows(): Promise<void> {
  const severalOnly = process.env.BENCH_MANY_ROWS === "several";
  const dovecot = await startDovecot({ extraUsers: N * SIZE });
  try {
    await seedAll(dovecot);
    if (!severalOnly) {
      console.log(`\n${N.toLocaleString("en")} mailboxes on one instance: get_recent_emails(20) per mailbox every 10-30 s (2026-07-28 clients):`);
      await fullRun(dovecot.extraUsers.slice(0, N), dovecot);
      await cappedRun(dovecot.extraUsers.slice(0, N), dovecot);
    }
    console.log(`\n${N.toLocaleString("en")} connections of ${SIZE} mailboxes on one instance: a spanning get_recent_emails(20) per connection every 10-30 s:`);
    await severalRun(dovecot.extraUsers, dovecot);
  } finally {
    await dovecot.stop();
  }
}

if (import.meta.main) await manyRows();
