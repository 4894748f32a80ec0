// `bun run bench`: seeds a private Dovecot (the test harness), runs the server in a child process
// (scripts/bench-server.ts) and prints, from one run:
//   - p50/p95 of each tool row through MCP vs our own mail function on one warm connection of our own
//     client, as the server's pool opens it (MCP/direct: the whole MCP layer), and vs a plain imapflow
//     client doing the same IMAP commands with a NOOP first (scripts/bench-plain.ts; MCP/plain, target
//     <= 1.3 at p50: what a person's own script would cost). MCP is measured three times: with a
//     minimal JSON-RPC-over-fetch client in each protocol era (2025-11-25 on a session, 2026-07-28
//     without one: the server's own cost) and with the official SDK client on a session (adds the
//     client's work, e.g. validating structuredContent against outputSchema);
//   - get_recent_emails(20) on a 20,000-message folder vs a 100-message folder (target <= 1.3);
//   - the server's RSS idle and with 50 open sessions (target idle <= 60 MB);
//   - send_email and move_email through MCP vs the same work done directly (target <= 1.3 at p50);
//   - the read rows, a move row and a token's first call with the mail server 20 ms away (scripts/bench-latency.ts).
//   - the server's CPU time per call under a mixed load of 100 sessions, reads alone and with writes (scripts/bench-cpu.ts).
//   - 1,000 mailboxes on one instance: p95 against 10, memory per open connection, the pool's cap (scripts/bench-many.ts).
//   - the store: SQLite vs Postgres per call, one vs two instances behind haproxy (scripts/bench-store.ts).
//   - a signed-in mailbox: a call that renews the provider's access token vs one that does not (scripts/bench-signin.ts).
//   - get_attachment on a 1-page and a 50-page PDF: p50/p95, peak RSS of the server and of its helpers (scripts/bench-pdf.ts).
//   - get_thread and a 5 MB forward, loopback and 20 ms away (scripts/bench-conversation.ts).
// First and last, the machine's state: load average, probes of JavaScript, memory, loopback and disk
// speed, and the hypervisor's steal over the run (scripts/bench-host.ts): compare runs where they agree.
// BENCH_ONLY=tools,size,memory,write,latency,cpu,store,tidy,signin,conversation,pdf,many,contacts,accounts runs only those parts (A/B runs of one figure).
// BENCH_ITERATIONS / BENCH_WARMUP change the 200 timed and 20 warm-up calls per figure (JIT warm-up
// of the server's HTTP/MCP code still shows in the first row of each server process at 20).
// To add a row (e.g. send_email, move_email), append to ROWS: a name, the MCP call (through either
// client: `m.call(tool, args)`), and the same work done directly on the ImapFlow client.
import { testReaders } from "../test/support/content.ts";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ImapFlow } from "imapflow";
import { connectImap, imapOptions, DEFAULT_TIMEOUTS } from "../src/mail/imap/connect.ts";
import { getEmail } from "../src/mail/read/message.ts";
import { searchEmails } from "../src/mail/read/search.ts";
import { recentEmails } from "../src/mail/read/recent.ts";
import { getHarness, stopHarness } from "../test/support/harness.ts";
import * as fx from "../test/support/mail-fixtures.ts";
import { callOk, connectClient } from "../test/support/mcp-client.ts";
import { testAccount } from "../test/support/token.ts";
import type { MailAccount } from "../src/mail/account.ts";
import {
  ITERATIONS, WARMUP, modernCaller, ms, rawCaller, rssMb, sdkCaller, startServer, startSmtpSink, time, timeTogether, verdict, type McpCaller, type ServerProc,
} from "./bench-lib.ts";
import { latencyRows, TRIAGE_MESSAGES } from "./bench-latency.ts";
import { accountsRows } from "./bench-accounts.ts";
import { cpuRows, mixedCpuRow } from "./bench-cpu.ts";
import { plainClient, type PlainRows } from "./bench-plain.ts";
import { storeRows } from "./bench-store.ts";
import { pdfRows } from "./bench-pdf.ts";
import { signInRows } from "./bench-signin.ts";
import { tidyRows } from "./bench-tidy.ts";
import { conversationRows } from "./bench-conversation.ts";
import { manyRows } from "./bench-many.ts";
import { contactsRows } from "./bench-contacts.ts";
import { probeHost } from "./bench-host.ts";

const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",")) : null;
const runs = (part: string) => !ONLY || ONLY.has(part);

const MIX = "BenchMix"; // 1,000 varied messages: the folder the tool rows work on
const SMALL = "Bench100";
const LARGE = "Bench20k";

interface Row {
  name: string;
  mcp: (m: McpCaller) => Promise<unknown>;
  /** Our own mail function on a warm imapflow connection: the MCP layer's cost alone. */
  direct: (imap: ImapFlow) => Promise<unknown>;
  /** A plain imapflow client doing the same IMAP commands with a NOOP first (./bench-plain.ts): the floor. */
  plain: (p: PlainRows) => Promise<unknown>;
}

const ROWS: Row[] = [
  {
    name: "get_recent_emails(20)",
    mcp: (m) => m.call("get_recent_emails", { folder: MIX, limit: 20 }),
    direct: (i) => recentEmails(i, { folder: MIX, limit: 20, beforeUid: null, unreadOnly: false }),
    plain: (p) => p.recent(20),
  },
  {
    name: "search_emails(from)",
    mcp: (m) => m.call("search_emails", { folder: MIX, from: "dave@example.org" }),
    direct: (i) => searchEmails(i, { folder: MIX, from: "dave@example.org", limit: 20, beforeUid: null }),
    plain: (p) => p.search("dave@example.org", 20),
  },
  // The same message each call: after the first, the server's connection has it kept
  // (src/mail/read/message-cache.ts) and asks only for its flags; a person's script fetches it again.
  {
    name: "get_email",
    mcp: (m) => m.call("get_email", { folder: MIX, uid: 500 }),
    direct: (i) => getEmail(i, { folder: MIX, uid: 500, maxChars: 20_000 }, testReaders()),
    plain: (p) => p.getEmail(500),
  },
  // A message not read before on the connection, each call (the first read of a message).
  {
    name: "get_email, new each",
    mcp: (m) => m.call("get_email", { folder: MIX, uid: newUid(m) }),
    direct: (i) => getEmail(i, { folder: MIX, uid: newUid(i), maxChars: 20_000 }, testReaders()),
    plain: (p) => p.getEmail(newUid(p)),
  },
];

/**
 * A uid of BenchMix that `caller` has not read lately: each caller walks the folder from its own
 * starting point (the three MCP callers share one server connection and its kept messages).
 */
function newUid(caller: object): number {
  const n = reads.get(caller) ?? reads.size * 250;
  reads.set(caller, n + 1);
  return (n % 1000) + 1;
}
const reads = new Map<object, number>();

function mixMessage(i: number): string {
  const from = i % 3 === 0 ? "Dave Example <dave@example.org>" : fx.DEFAULT_FROM;
  const date = new Date(Date.UTC(2024, 0, 1) + i * 3_600_000);
  const body = `Message ${i}.\n` + "Some ordinary text in a message body, about the length of a short email.\n".repeat(20);
  return i % 7 === 0 ? fx.alternative({ from, date, subject: `Mix ${i}` }) : fx.plainText({ from, date, subject: `Mix ${i}` }, body);
}

async function seed(h: Awaited<ReturnType<typeof getHarness>>): Promise<void> {
  const t = performance.now();
  await h.dovecot.seedBulk("alice", MIX, 1000, mixMessage);
  if (!runs("size")) return void console.log(`seeded 1,000 messages in ${Math.round(performance.now() - t)} ms`);
  await h.dovecot.seedBulk("alice", SMALL, 100, (i) => fx.plainText({ subject: `Small ${i}` }));
  await h.dovecot.seedBulk("alice", LARGE, 20_000, (i) => fx.plainText({ subject: `Large ${i}` }));
  console.log(`seeded 21,100 messages in ${Math.round(performance.now() - t)} ms`);
}

/** The several-mailbox rows' mailboxes: alice, bob (with BenchMix seeded too) and alice again (its own IMAP connection). */
async function seedAccounts(h: Awaited<ReturnType<typeof getHarness>>): Promise<ReturnType<typeof testAccount>[]> {
  await h.dovecot.seedBulk("bob", MIX, 1000, mixMessage);
  const alice = testAccount(h.dovecot.users.alice, h.dovecot);
  return [alice, testAccount(h.dovecot.users.bob, h.dovecot), { ...alice, email: "alice.again@example.test" }];
}

/** The latency part's move row: a folder of small messages to move one by one, and where to. */
async function seedTriage(h: Awaited<ReturnType<typeof getHarness>>): Promise<{ from: string; to: string }> {
  const triage = { from: "BenchTriage", to: "BenchTriaged" };
  await h.dovecot.seedBulk("alice", triage.from, TRIAGE_MESSAGES, (i) => fx.plainText({ subject: `Triage ${i}` }));
  await h.dovecot.seedBulk("alice", triage.to, 0, () => "");
  return triage;
}

type Callers = { raw: McpCaller; modern: McpCaller; sdk: McpCaller };

const header = (label: string, base = "direct") => `${label.padEnd(22)} ${`${base} p50/p95`.padStart(13)} ${"2025 raw p50/p95".padStart(16)} ratio ` +
  `${"2026 raw p50/p95".padStart(16)} ratio ${"2025 SDK p50/p95".padStart(16)} ratio`;

type Timing = { p50: number; p95: number };
const cell = (t: Timing, width = 16) => `${ms(t.p50)}/${ms(t.p95)}`.padStart(width);
const ratioTo = (base: Timing) => (t: Timing) => (t.p50 / base.p50).toFixed(2).padStart(5);

/**
 * One printed row: direct, then the three MCP callers with their ratios to direct. The write rows have
 * the target (<= 1.3 at p50, judged on both raw eras); a read row's direct call is our mail function on
 * a warm cached connection (often one UID FETCH of flags), so its ratio is the whole MCP layer's cost,
 * shown without a verdict: the read rows' target is against the plain floor below.
 */
function printRow(name: string, [direct, raw, modern, sdk]: Timing[], target = true): void {
  const ratio = ratioTo(direct!);
  const ok = raw!.p50 / direct!.p50 <= 1.3 && modern!.p50 / direct!.p50 <= 1.3;
  const judged = target ? verdict(ok) : "(the MCP layer)";
  console.log(`${name.padEnd(22)} ${cell(direct!, 13)} ${cell(raw!)} ${ratio(raw!)} ${cell(modern!)} ${ratio(modern!)} ${cell(sdk!)} ${ratio(sdk!)}  ${judged}`);
}

/** The same row against the plain-imapflow floor; the verdict is on the SDK client (issue 25: <= 1.3). */
function printFloorRow(name: string, [plain, raw, modern, sdk]: Timing[]): void {
  const ratio = ratioTo(plain!);
  const ok = sdk!.p50 / plain!.p50 <= 1.3;
  console.log(`${name.padEnd(22)} ${cell(plain!, 13)} ${cell(raw!)} ${ratio(raw!)} ${cell(modern!)} ${ratio(modern!)} ${cell(sdk!)} ${ratio(sdk!)}  ${verdict(ok)}`);
}

/** Each row's five callers timed together (round robin), then printed against direct and against the floor. */
async function toolRows(callers: Callers, imap: ImapFlow, plain: PlainRows): Promise<void> {
  await touchEvery(imap, MIX);
  const timed: Array<[string, Timing[]]> = [];
  for (const row of ROWS) {
    const fns = [() => row.plain(plain), () => row.direct(imap), () => row.mcp(callers.raw), () => row.mcp(callers.modern), () => row.mcp(callers.sdk)];
    timed.push([row.name, await timeTogether(fns)]);
  }
  console.log(`\n${header("row")}`);
  for (const [name, [, direct, raw, modern, sdk]] of timed) printRow(name, [direct!, raw!, modern!, sdk!], false);
  console.log(`\nagainst a plain imapflow client doing the same IMAP commands with a NOOP first (scripts/bench-plain.ts):`);
  console.log(header("row", "plain"));
  for (const [name, [plain, , raw, modern, sdk]] of timed) printFloorRow(name, [plain!, raw!, modern!, sdk!]);
}

/**
 * Every message of `folder` read once before the rows, as a listing would have: the mail server's
 * first read of a message file (from disk, into its index cache) would otherwise land on whichever
 * caller of "get_email, new each" reaches that uid first.
 */
async function touchEvery(imap: ImapFlow, folder: string): Promise<void> {
  const lock = await imap.getMailboxLock(folder, { readOnly: true });
  try {
    for await (const _ of imap.fetch("1:*", { uid: true, envelope: true, bodyStructure: true, size: true, internalDate: true, source: true })) void _;
  } finally {
    lock.release();
  }
}

// Paging one folder keeps it selected on the pooled connection, so each folder is timed in a run of
// its own. Switching folders pays the server's SELECT, printed apart: on the harness Dovecot a
// 20,000-message Maildir takes ~0.7 s to SELECT (CPU in Dovecot's uidlist code), direct or not.
async function sizeRatio(m: McpCaller, imap: ImapFlow): Promise<void> {
  const small = await time(() => m.call("get_recent_emails", { folder: SMALL, limit: 20 }));
  const large = await time(() => m.call("get_recent_emails", { folder: LARGE, limit: 20 }));
  const ratio = large.p50 / small.p50;
  console.log(`\nget_recent_emails(20) 20,000 vs 100 messages: p50 ${ms(large.p50)} vs ${ms(small.p50)} ms, ratio ${ratio.toFixed(2)}  ${verdict(ratio <= 1.3)}`);
  const switches: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    (await imap.getMailboxLock(LARGE, { readOnly: true })).release();
    (await imap.getMailboxLock(SMALL, { readOnly: true })).release();
    switches.push(performance.now() - t);
  }
  const median = switches.sort((a, b) => a - b)[2]!;
  console.log(`  (a folder switch is the server's own cost: EXAMINE ${LARGE} then ${SMALL}, directly: p50 ${ms(median)} ms)`);
}

// "Before" is after the timing runs (imapflow and our MIME code loaded, JIT warm), so the difference is
// what 50 more sessions cost.
async function memory(server: ServerProc, url: string, idle: number): Promise<void> {
  const before = rssMb(server.pid);
  const clients: Client[] = [];
  for (let i = 0; i < 50; i++) {
    const c = await connectClient(url, server.tokens[0]!);
    await callOk(c, "get_recent_emails", { folder: MIX, limit: 5 });
    clients.push(c);
  }
  await Bun.sleep(500);
  const after = rssMb(server.pid);
  console.log(`\nserver RSS: idle ${idle.toFixed(1)} MB  ${verdict(idle <= 60)}; after the timing runs ${before.toFixed(1)} MB; ` +
    `with 50 more open sessions ${after.toFixed(1)} MB (+${((after - before) / 50).toFixed(2)} MB per session)`);
  await Promise.all(clients.map((c) => c.close()));
}

/** The rows on one server with one token: tools, size, memory. */
async function firstServerRows(account: MailAccount): Promise<void> {
  const server = await startServer([account]);
  try {
    await Bun.sleep(1000);
    const idle = rssMb(server.pid);
    const url = `http://localhost:${server.port}/mcp`;
    const client = await connectClient(url, server.tokens[0]!);
    // Our own client, as the server's pool opens it (src/mail/imap/connect.ts): its view tracking is
    // what lets a UID read skip the NOOP (docs/freshness.md); a bare ImapFlow would send one each call.
    const imap = await connectImap(account, DEFAULT_TIMEOUTS, false);
    imap.on("error", () => {}); // an idle timeout during the later parts is not a failure of the bench
    const plain = await plainClient(account, MIX);
    console.log(`${ITERATIONS} iterations per figure after ${WARMUP} warm-up calls; times in ms`);
    const sessionId = (client.transport as { sessionId?: string }).sessionId!;
    const callers = { raw: rawCaller(url, server.tokens[0]!, sessionId), modern: modernCaller(url, server.tokens[0]!), sdk: sdkCaller(client) };
    if (runs("tools")) await toolRows(callers, imap, plain);
    if (runs("size")) await sizeRatio(callers.sdk, imap);
    if (runs("memory")) await memory(server, url, idle);
    await client.close();
    // The direct clients sat idle through the later parts and their sockets may have timed out by now.
    await imap.logout().catch(() => imap.close());
    await plain.logout();
  } finally {
    server.kill();
  }
}

async function main(): Promise<void> {
  const host = await probeHost(); // before anything of the bench's own runs
  console.log(host.before);
  const h = await getHarness();
  await seed(h);
  const account = testAccount(h.dovecot.users.alice, h.dovecot);
  try {
    if (["tools", "size", "memory"].some(runs)) await firstServerRows(account);
    if (runs("write")) await writeRows(h); // issue 5: send_email, move_email
    if (runs("latency")) await latencyRows(account, MIX, await seedTriage(h)); // issue 9: 20 ms away, in round trips
    if (runs("cpu")) await cpuRows(account, MIX); // issue 12: server CPU per call, both eras
    if (runs("cpu")) await withSmtpSink(h, (sink) => mixedCpuRow(testAccount(h.dovecot.users.alice, h.dovecot, sink), MIX)); // issue 25: writes too
    if (runs("store")) await storeRows(account, MIX); // issue 13: SQLite vs Postgres, one vs two instances
    if (runs("signin")) await signInRows(h); // issue 22: a call that renews a provider's token vs one that does not
    if (runs("tidy")) await tidyRows(h); // issue 21: search "*" over 10 folders, get_changes on 20,000
    if (runs("conversation")) await conversationRows(h); // issue 20: get_thread, a 5 MB forward
    if (runs("pdf")) await pdfRows(h); // issue 19: get_attachment on a 1-page and a 50-page PDF, time and peak RSS
    if (runs("many")) await manyRows(); // issue 25: 1,000 mailboxes on one instance
    if (runs("contacts")) await contactsRows(); // issue 44: find_contacts on 20,000 Sent messages
    if (runs("accounts")) await accountsRows(await seedAccounts(h), MIX); // issue 42: several mailboxes in one connection
    console.log(`\n${host.after()}`);
  } finally {
    await stopHarness();
  }
}

/** An SMTP server of its own process (scripts/bench-smtp.ts) for as long as `fn` runs; its port. */
async function withSmtpSink(h: Awaited<ReturnType<typeof getHarness>>, fn: (port: number) => Promise<void>): Promise<void> {
  const sink = await startSmtpSink(h.dovecot.users);
  try {
    await fn(sink.port);
  } finally {
    sink.kill();
  }
}

await main();

// ---------------------------------------------------------------------------------------------
// Write tools (issue 5): send_email and move_email through MCP (raw and SDK client, as above) vs the
// same work done directly. A second server process, because these rows need an account with SMTP
// (the one above has none). send_email goes to an address the SMTP server (scripts/bench-smtp.ts,
// its own process, as a real one would be for both sides) records but does not deliver, so the
// figures are our work (compose, SMTP, APPEND to Sent), not local delivery. Direct send = build with
// nodemailer, send on a warm pooled transport, APPEND to Sent with \Seen. move_email ping-pongs one
// message per caller between two folders, following its new uid.
async function writeRows(h: Awaited<ReturnType<typeof getHarness>>): Promise<void> {
  const nodemailer = (await import("nodemailer")).default;
  const sink = await startSmtpSink(h.dovecot.users);
  const account = testAccount(h.dovecot.users.alice, h.dovecot, sink.port);
  const server = await startServer([account]);
  const url = `http://localhost:${server.port}/mcp`;
  const client = await connectClient(url, server.tokens[0]!);
  const callers = {
    raw: rawCaller(url, server.tokens[0]!, (client.transport as { sessionId?: string }).sessionId!), modern: modernCaller(url, server.tokens[0]!), sdk: sdkCaller(client),
  };
  const imap = new ImapFlow(imapOptions(account, DEFAULT_TIMEOUTS));
  await imap.connect();
  const smtp = nodemailer.createTransport({ pool: true, host: account.smtp.host, port: account.smtp.port, secure: false, ignoreTLS: true, auth: { user: account.username, pass: account.auth.kind === "password" ? account.auth.password : "" } });
  const build = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  const to = "bench-sink@example.net";
  let sends = 0;
  const folders = [`BenchMoveA-${Date.now()}`, `BenchMoveB-${Date.now()}`] as const;
  try {
    for (const f of folders) await imap.mailboxCreate(f);
    for (let i = 1; i <= 4; i++) await h.dovecot.deliver("alice", fx.plainText({ subject: `move me ${i}` }), folders[0]);
    // One message per caller (uids 1-4), moved back and forth; next() follows it to its new uid.
    const pingPong = (uid: number) => ({
      uid, from: folders[0] as string, to: folders[1] as string,
      next(newUid: number) { this.uid = newUid; [this.from, this.to] = [this.to, this.from]; },
    });
    const moveVia = (m: McpCaller, p: ReturnType<typeof pingPong>) => async () => {
      const r = (await m.call("move_email", { folder: p.from, uids: [p.uid], destination: p.to })) as { moved: Array<{ new_uid: number }> };
      p.next(r.moved[0]!.new_uid);
    };
    const d = pingPong(1);
    const rows: Array<[string, Array<() => Promise<unknown>>]> = [
      ["send_email", [async () => {
        const { message } = await build.sendMail({ from: account.email, to, subject: "bench", text: "Hello from the bench." });
        await smtp.sendMail({ raw: message as Buffer, envelope: { from: account.email, to: [to] } });
        await imap.append("Sent", message as Buffer, ["\\Seen"]);
      }, ...[callers.raw, callers.modern, callers.sdk].map((m) => () =>
        // Each send a message of its own: the same one again within 10 minutes is answered from the
        // at-most-once ledger without sending (issue 23), which would be another row.
        m.call("send_email", { to, subject: `bench ${++sends}`, text: "Hello from the bench." }))]],
      ["move_email", [async () => {
        const lock = await imap.getMailboxLock(d.from);
        try {
          const r = await imap.messageMove(String(d.uid), d.to, { uid: true });
          d.next(r ? r.uidMap!.get(d.uid)! : d.uid);
        } finally {
          lock.release();
        }
      }, moveVia(callers.raw, pingPong(2)), moveVia(callers.modern, pingPong(3)), moveVia(callers.sdk, pingPong(4))]],
    ];
    console.log(`\n${header("write row")}`);
    for (const [name, fns] of rows) printRow(name, await timeTogether(fns));
  } finally {
    sink.kill();
    smtp.close();
    await client.close();
    // The direct client sat idle through the later parts and its socket may have timed out by now.
    await imap.logout().catch(() => imap.close());
    server.kill();
  }
}
