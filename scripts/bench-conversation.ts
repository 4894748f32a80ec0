// `bun run bench` (BENCH_ONLY=conversation), issue 20: get_thread on a 10-message conversation spread
// over INBOX, Sent and Archive, and send_email forwarding a message with a 5 MB attachment inline
// (read the original, fetch the attachment server-side, compose, SMTP, APPEND the 5 MB copy to Sent,
// flag $Forwarded). Each through MCP (raw JSON-RPC on a 2025 session) against a direct imapflow
// client doing the same IMAP work with the same mail-layer functions (and a pooled nodemailer
// transport for SMTP), on loopback and with the mail server 20 ms away (the latency relay), where
// the figure that matters is round trips. The SMTP sink is a process of its own (scripts/bench-smtp.ts).
import { testReaders } from "../test/support/content.ts";
import { ImapFlow } from "imapflow";
import type { MailAccount } from "../src/mail/account.ts";
import { DEFAULT_TIMEOUTS, imapOptions } from "../src/mail/imap/connect.ts";
import { getThread } from "../src/mail/read/thread/thread.ts";
import { assemble } from "../src/mail/write/assemble.ts";
import { prepare, type OutgoingArgs, type OutgoingDeps } from "../src/mail/write/outgoing.ts";
import type { OutgoingMessage } from "../src/mail/smtp/pool.ts";
import { deliver } from "../src/sending/deliver.ts";
import type { Harness } from "../test/support/harness.ts";
import { startLatencyRelay, type LatencyRelay } from "../test/support/latency-relay.ts";
import { attached, mixed, note } from "../test/support/attachment-mail.ts";
import * as fx from "../test/support/mail-fixtures.ts";
import { connectClient } from "../test/support/mcp-client.ts";
import { testAccount } from "../test/support/token.ts";
import { ms, rawCaller, startServer, startSmtpSink, timeTogether } from "./bench-lib.ts";

const RTT = Number(process.env.BENCH_RTT_MS ?? 20);
const THREAD_ITER = Number(process.env.BENCH_THREAD_ITERATIONS ?? 40);
const FORWARD_ITER = Number(process.env.BENCH_FORWARD_ITERATIONS ?? 10);
const FWD_FOLDER = "BenchForward";
const FWD_SUBJECT = "bench forward 5 MB";
const SINK = "bench-sink@example.net";

/** The 10 messages of fx.thread spread over INBOX, Sent, Archive; returns the newest one's uid in INBOX. */
async function seed(h: Harness): Promise<number> {
  const thread = fx.thread(10, { id: "bench", subject: "Bench conversation" });
  const folders = ["INBOX", "Sent", "Archive"];
  for (const [i, raw] of thread.entries()) await h.dovecot.deliver("alice", raw, folders[i % 3]);
  const imap = new ImapFlow({ host: h.dovecot.host, port: h.dovecot.port, secure: false, logger: false, auth: { user: h.dovecot.users.alice.user, pass: h.dovecot.users.alice.pass } });
  await imap.connect();
  try {
    await imap.mailboxCreate(FWD_FOLDER);
    await imap.append(FWD_FOLDER, fx.buildMessage({ subject: FWD_SUBJECT }, mixed([note("The file.\n"), attached("application/octet-stream", "big.bin", new Uint8Array(5 * 1024 * 1024).map((_, i) => i % 251))])));
    const lock = await imap.getMailboxLock("INBOX");
    try {
      return Math.max(...((await imap.search({ header: { "message-id": "<thread-bench-10@example.test>" } }, { uid: true })) || []));
    } finally {
      lock.release();
    }
  } finally {
    await imap.logout();
  }
}

export async function conversationRows(h: Harness): Promise<void> {
  const uid = await seed(h);
  const sink = await startSmtpSink(h.dovecot.users);
  try {
    console.log(`\nissue 20: get_thread (10 messages over INBOX, Sent, Archive; ${THREAD_ITER} calls) and send_email forwarding a 5 MB attachment (${FORWARD_ITER} calls)`);
    console.log("at 20 ms, RT = (p50 there - p50 on loopback) / RTT: the round trips the row waits for, local work left out");
    console.log(`${"row".padEnd(30)} ${"direct p50 ms".padStart(18)} ${"MCP p50 ms".padStart(18)} ratio`);
    const loopback = new Map<string, number[]>();
    for (const rtt of [0, RTT]) await rows(testAccount(h.dovecot.users.alice, h.dovecot, sink.port), uid, rtt, loopback);
  } finally {
    sink.kill();
  }
}

async function rows(account: MailAccount, uid: number, rtt: number, loopback: Map<string, number[]>): Promise<void> {
  const relay = rtt ? await startLatencyRelay({ host: "127.0.0.1", port: account.imap.port }, rtt) : null;
  const far: MailAccount = relay ? { ...account, imap: { ...account.imap, host: "127.0.0.1", port: relay.port } } : account;
  const server = await startServer([far]);
  const url = `http://localhost:${server.port}/mcp`;
  const client = await connectClient(url, server.tokens[0]!);
  const mcp = rawCaller(url, server.tokens[0]!, (client.transport as { sessionId?: string }).sessionId!);
  const direct = new ImapFlow(imapOptions(far, DEFAULT_TIMEOUTS));
  const nodemailer = (await import("nodemailer")).default;
  const smtp = nodemailer.createTransport({ pool: true, host: far.smtp.host, port: far.smtp.port, secure: false, ignoreTLS: true, auth: { user: far.username, pass: far.auth.kind === "password" ? far.auth.password : "" } });
  try {
    await direct.connect();
    const deps: OutgoingDeps = { account: far, withImap: (fn) => fn(direct), content: testReaders() };
    const submit = async (m: OutgoingMessage) => ({ messageId: m.messageId, ...(await smtp.sendMail({ raw: m.raw, envelope: m.envelope })) as { accepted: string[]; rejected: string[] } });
    // The direct row: compose and hand to SMTP (Sent copy, $Forwarded) as the send gate's delivery does, without the gate.
    const sendEmail = async (args: OutgoingArgs) => {
      const p = prepare(args, "send");
      const a = await assemble(deps, p);
      try {
        const source = a.original ? { folder: a.original.folder, uid: a.original.uid } : undefined;
        return await deliver(submit, deps, a.composed, { forwarded: p.forward ? source : undefined });
      } finally {
        a.release();
      }
    };
    const thread = { folder: "INBOX", uid, max_messages: 50, max_chars_per_message: 4000, include_quoted: false };
    const fwdUid = await withLock(direct, FWD_FOLDER, async () => Math.max(...((await direct.search({ subject: FWD_SUBJECT }, { uid: true })) || [])));
    const forward = { to: SINK, forward_uid: fwdUid, forward_folder: FWD_FOLDER, text: "FYI" };
    const row = (name: string, n: number, warmup: number, fns: Array<() => Promise<unknown>>) => timeRow(name, rtt, loopback, relay, n, warmup, fns);
    await row("get_thread(10 over 3)", THREAD_ITER, 5, [
      () => getThread(direct, { folder: "INBOX", uid, maxMessages: 50, maxCharsPerMessage: 4000, includeQuoted: false }, testReaders()),
      () => mcp.call("get_thread", thread),
    ]);
    // Each call a different message: the send gate answers a repeat of the same message within 10
    // minutes with the first outcome, without sending (at-most-once), which would time nothing.
    let n = 0;
    await row("forward 5 MB inline", FORWARD_ITER, 2, [
      () => sendEmail({ ...forward, text: `FYI ${++n}` }), () => mcp.call("send_email", { ...forward, text: `FYI ${++n}` }),
    ]);
    await emptySent(direct);
  } finally {
    smtp.close();
    await client.close();
    await direct.logout().catch(() => {});
    server.kill();
    await relay?.stop();
  }
}

/**
 * One printed row. At a distance it adds the IMAP commands of one more call of each (client writes
 * counted at the relay), a count that the shared machine's noise does not move.
 */
async function timeRow(name: string, rtt: number, loopback: Map<string, number[]>, relay: LatencyRelay | null, n: number, warmup: number, fns: Array<() => Promise<unknown>>): Promise<void> {
  const p50s = (await timeTogether(fns, n, warmup)).map((t) => t.p50);
  if (!rtt) loopback.set(name, p50s);
  const near = loopback.get(name);
  const writes: number[] = [];
  for (const fn of relay ? fns : []) {
    const before = relay!.sent;
    await fn();
    writes.push(relay!.sent - before);
  }
  const cell = (p50: number, i: number) => (rtt && near ? `${ms(p50)} (${((p50 - near[i]!) / rtt).toFixed(1)} RT)` : ms(p50)).padStart(18);
  const label = `${name}${rtt ? ` at ${rtt} ms` : " loopback"}`;
  const commands = writes.length ? `  IMAP writes per call: direct ${writes[0]}, MCP ${writes[1]}` : "";
  console.log(`${label.padEnd(30)} ${cell(p50s[0]!, 0)} ${cell(p50s[1]!, 1)} ${(p50s[1]! / p50s[0]!).toFixed(2).padStart(5)}${commands}`);
}

async function withLock<T>(c: ImapFlow, folder: string, fn: () => Promise<T>): Promise<T> {
  const lock = await c.getMailboxLock(folder);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/** Each forward files a 5 MB copy in Sent: remove them, so the next rows and runs do not pay for them. */
async function emptySent(c: ImapFlow): Promise<void> {
  await withLock(c, "Sent", async () => {
    const uids = (await c.search({ subject: `Fwd: ${FWD_SUBJECT}` }, { uid: true })) || [];
    if (uids.length) await c.messageDelete(uids.join(","), { uid: true });
  });
}
