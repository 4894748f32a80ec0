// `bun run bench accounts`: several mailboxes in one connection (issue 42). A spanning
// get_recent_emails(20) over 3 mailboxes against the slowest of the same call on each mailbox alone
// (target p50 <= 1.3x), on loopback and with the mail server 20 ms away (the latency relay); the same
// spanning read with one mailbox that accepts the connection and never answers (target: the others
// within the tool's per-mailbox budget + 1 s); and the first call of a connection of three cold
// mailboxes in round trips (they log in in parallel: paid once, not three times).
import { createServer, type Server, type Socket } from "node:net";
import type { MailAccount } from "../src/mail/account.ts";
import { SPAN_MAILBOX_BUDGET_MS } from "../src/mcp/accounts/span.ts";
import { startLatencyRelay } from "../test/support/latency-relay.ts";
import { connectClient } from "../test/support/mcp-client.ts";
import { ImapFlow } from "imapflow";
import { DEFAULT_TIMEOUTS, imapOptions } from "../src/mail/imap/connect.ts";
import { ms, pct, rawCaller, startServer, timeTogether, verdict, type ServerProc } from "./bench-lib.ts";
import { relayRoundTrip } from "./bench-latency.ts";

const ITER = Number(process.env.BENCH_ACCOUNTS_ITERATIONS ?? 200); // the loopback ratio is ~1 ms apart: 40 calls left its p50 swinging ±0.1
const RTT = Number(process.env.BENCH_RTT_MS ?? 20);

/** `accounts`: three mailboxes, each with `folder` holding messages. */
export async function accountsRows(accounts: MailAccount[], folder: string): Promise<void> {
  console.log(`\nseveral mailboxes in one connection: spanning get_recent_emails(20) over ${accounts.length}, ${ITER} calls each`);
  await spanVsSingle("loopback", accounts, folder, 0);
  const relay = await startLatencyRelay({ host: "127.0.0.1", port: accounts[0]!.imap.port }, RTT);
  try {
    const far = accounts.map((a) => ({ ...a, imap: { ...a.imap, host: "127.0.0.1", port: relay.port } }));
    await spanVsSingle(`${RTT} ms relay`, far, folder, RTT);
    await coldConnection(far, accounts, folder);
  } finally {
    await relay.stop();
  }
  await oneSilent(accounts, folder);
}

/** A server whose connections hold `size` mailboxes each (`accounts` in order); a caller on connection `which`. */
async function caller(accounts: MailAccount[], size = accounts.length, which = 0) {
  const server = await startServer(accounts, { env: { BENCH_CONNECTION_SIZE: String(size) } });
  const url = `http://localhost:${server.port}/mcp`;
  const on = async (i: number) => {
    const client = await connectClient(url, server.tokens[i]!);
    return { client, mcp: rawCaller(url, server.tokens[i]!, (client.transport as { sessionId?: string }).sessionId!) };
  };
  return { server, on, ...(await on(which)) };
}

async function spanVsSingle(where: string, accounts: MailAccount[], folder: string, rtt: number): Promise<void> {
  const { server, client, mcp } = await caller(accounts);
  try {
    const names = [...new Set(accounts.map((a) => a.email.toLowerCase()))];
    const fns = [() => mcp.call("get_recent_emails", { folder, limit: 20 }),
      ...names.map((account) => () => mcp.call("get_recent_emails", { folder, limit: 20, account }))];
    const [span, ...single] = await timeTogether(fns, ITER);
    const slowest = Math.max(...single.map((s) => s.p50));
    const ratio = span!.p50 / slowest;
    const rts = rtt ? ` (${(span!.p50 / rtt).toFixed(1)} RTs)` : "";
    console.log(`${where.padEnd(14)} spanning p50 ${ms(span!.p50)} ms${rts}, slowest single ${ms(slowest)} ms, ratio ${ratio.toFixed(2)}  ${verdict(ratio <= 1.3)}`);
    if (!rtt) console.log(`${"".padEnd(14)} server CPU per call: spanning ${await cpuPerCall(server, fns[0]!)} µs, single ${await cpuPerCall(server, fns[1]!)} µs (less moved by others' load than p50)`);
  } finally {
    await client.close();
    server.kill();
  }
}

/** The server's CPU time (user + system) per call of `fn`, over ITER calls one after another. */
async function cpuPerCall(server: ServerProc, fn: () => Promise<unknown>): Promise<number> {
  const before = await server.cpuMicros();
  for (let i = 0; i < ITER; i++) await fn();
  return Math.round(((await server.cpuMicros()) - before) / ITER);
}

/**
 * The first call of a connection whose three IMAP connections are not open yet, in round trips, on a
 * server already warm (another connection's calls ran first, as bench-latency.ts's first-call row):
 * in time over RTT, and waited for (the same call of a loopback connection subtracted: local work).
 */
async function coldConnection(far: MailAccount[], near: MailAccount[], folder: string): Promise<void> {
  const n = 4;
  const sets = [far, ...Array.from({ length: n }, () => far), ...Array.from({ length: n }, () => near)];
  const { server, client, mcp, on } = await caller(sets.flat(), far.length);
  const direct = new ImapFlow(imapOptions(far[0]!, DEFAULT_TIMEOUTS));
  try {
    await direct.connect();
    for (let i = 0; i < 5; i++) await mcp.call("get_recent_emails", { folder, limit: 20 });
    const first = async (which: number) => {
      const cold = await on(which);
      const t = performance.now();
      await cold.mcp.call("get_recent_emails", { folder, limit: 20 });
      const took = performance.now() - t;
      await cold.client.close();
      return took;
    };
    const p50 = async (from: number) => {
      const took: number[] = [];
      for (let i = from; i < from + n; i++) took.push(await first(i));
      return pct(took.sort((a, b) => a - b), 0.5);
    };
    const [there, here, unit] = [await p50(1), await p50(1 + n), await relayRoundTrip(direct)];
    const waited = (there - here) / unit;
    console.log(`first spanning call, 3 cold mailboxes: p50 ${ms(there)} ms = ${(there / RTT).toFixed(1)} x ${RTT} ms (their logins run in parallel); ` +
      `on loopback ${ms(here)} ms; a NOOP through the relay ${ms(unit)} ms: ${waited.toFixed(1)} round trips waited for  ${verdict(waited <= 3.5)}`);
  } finally {
    await direct.logout().catch(() => {});
    await client.close();
    server.kill();
  }
}

/** A mail server that accepts the connection and never says a word. */
async function silentServer(): Promise<{ port: number; stop(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => { sockets.add(s); s.on("error", () => {}); });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, stop: () => { for (const s of sockets) s.destroy(); server.close(); } };
}

async function oneSilent(accounts: MailAccount[], folder: string): Promise<void> {
  const silent = await silentServer();
  const mute: MailAccount = { ...accounts[2]!, email: "silent@example.test", imap: { ...accounts[2]!.imap, host: "127.0.0.1", port: silent.port } };
  const { server, client, mcp } = await caller([accounts[0]!, accounts[1]!, mute]);
  try {
    const t = performance.now();
    const res = await mcp.call("get_recent_emails", { folder, limit: 20 }) as { accounts_failed: Array<{ account: string }> };
    const took = performance.now() - t;
    const ok = took <= SPAN_MAILBOX_BUDGET_MS + 1000 && res.accounts_failed.length === 1;
    console.log(`one mailbox silent: answered in ${ms(took)} ms with ${res.accounts_failed.map((f) => f.account).join(", ")} in accounts_failed ` +
      `(budget ${SPAN_MAILBOX_BUDGET_MS / 1000} s + 1 s)  ${verdict(ok)}`);
  } finally {
    await client.close();
    server.kill();
    silent.stop();
  }
}
