// `bun run bench` (BENCH_ONLY=contacts), issue 44: find_contacts on a mailbox with 20,000 Sent
// messages (2,000 distinct recipients, To + Cc) and 1,000 answered INBOX messages, on a Dovecot of
// its own, through MCP (2026-07-28, no session) against the server in a child process. Printed:
// the first call (targets <= 2 s on loopback, <= 5 s with the mail server 20 ms away through the
// latency relay), the server's memory for it (RSS after a full GC, minus before; peak RSS, VmHWM
// reset just before the call, minus RSS before; target <= 25 MB), and later calls p50/p95 (target
// <= 50 ms). Memory twice: the process's very first find_contacts, which also pays once for what
// any mail reading loads (libmime and addressparser: ~14 MB RSS in a bare process) and for compiling
// the code it runs (JSC's optimizing JIT: ~10 MB, measured with BUN_JSC_useFTLJIT=false); and the
// first call on the same mailbox through other tokens (books of their own, built from nothing),
// in the process as it then is, the median of WARM_BOOKS: the figure the target is held to.
import { readFileSync, writeFileSync } from "node:fs";
import { startDovecot } from "../test/support/dovecot.ts";
import { startLatencyRelay } from "../test/support/latency-relay.ts";
import * as fx from "../test/support/mail-fixtures.ts";
import { testAccount } from "../test/support/token.ts";
import { modernCaller, ms, startServer, time, verdict } from "./bench-lib.ts";

const SENT = Number(process.env.BENCH_CONTACTS_SENT ?? 20_000);
const PEOPLE = 2_000;
const RTT = Number(process.env.BENCH_RTT_MS ?? 20);
const MB = 1024 * 1024;
const WARM_BOOKS = 3;
const SETTLE_MS = 3_000;

const person = (i: number) => fx.address(`Person ${i % PEOPLE} Ström`, `p${i % PEOPLE}@contacts.example`);
const peakRss = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
/** Sets the child's peak RSS (VmHWM) back to its RSS now (proc(5) clear_refs "5"): the peak is then this call's own. */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, "5");

export async function contactsRows(): Promise<void> {
  console.log(`\nfind_contacts: ${SENT.toLocaleString("en")} Sent messages, ${PEOPLE.toLocaleString("en")} people (issue 44)`);
  const dovecot = await startDovecot();
  const relay = await startLatencyRelay(dovecot, RTT);
  try {
    const alice = dovecot.users.alice.email;
    const t = performance.now();
    await dovecot.seedBulk("alice", "Sent", SENT, (i) => fx.plainText({
      from: alice, to: person(i * 7), cc: i % 3 ? [] : [person(i * 13)], subject: `s ${i}`, date: new Date(Date.UTC(2024, 0, 1) + i * 600_000),
    }, "Short.\n"));
    await dovecot.seedBulk("alice", "INBOX", 1000, (i) => ({ raw: fx.plainText({ from: person(i * 11), to: alice, subject: `r ${i}` }, "Hi.\n"), flags: ["\\Answered"] }));
    console.log(`  seeded in ${Math.round(performance.now() - t)} ms`);
    const near = testAccount(dovecot.users.alice, dovecot);
    const server = await startServer([near, testAccount(dovecot.users.alice, relay), ...Array.from({ length: WARM_BOOKS }, () => near)]);
    try {
      const url = `http://127.0.0.1:${server.port}/mcp`;
      const [first, far, ...others] = server.tokens.map((token) => modernCaller(url, token));
      // The connections are open and the code loaded: the first find_contacts is its own cost.
      for (const caller of [first, far, ...others]) await caller!.call("list_mailboxes", {});
      /** Time and memory of one call: RSS after a full GC minus before, and its own peak. */
      // Freed pages go back to the system a second or two after a collection (the allocators'
      // scavengers): measured at once, "before" would still hold the previous call's garbage pages,
      // which this call then reuses, and its own peak would look smaller than it is.
      const measured = async (call: () => Promise<unknown>) => {
        await server.memory();
        await Bun.sleep(SETTLE_MS);
        const before = await server.memory();
        await server.lag();
        resetPeak(server.pid);
        const t0 = performance.now();
        await call();
        const took = performance.now() - t0;
        const lag = await server.lag();
        const after = await server.memory();
        const mb = (bytes: number) => bytes / MB;
        return { took, lag, live: mb(before.heap), held: mb(after.rss - before.rss), peak: mb(peakRss(server.pid) - before.rss), heap: mb(after.heap - before.heap) };
      };
      const cold = await measured(() => first!.call("find_contacts", { limit: 20 }));
      console.log(`  first call, loopback:   ${ms(cold.took)} ms  (target <= 2000: ${verdict(cold.took <= 2000)})`);
      const show = (m: typeof cold) => `+${m.held.toFixed(1)} MB RSS after GC (JS heap ${m.live.toFixed(0)} MB +${m.heap.toFixed(1)} MB), peak +${m.peak.toFixed(1)} MB; event loop's worst delay ${ms(m.lag)} ms`;
      console.log(`  server memory, the process's first find_contacts: ${show(cold)}`);
      const warm: Array<typeof cold> = [];
      for (const caller of others) warm.push(await measured(() => caller!.call("find_contacts", { limit: 20 })));
      const mid = warm.sort((a, b) => Math.max(a.held, a.peak) - Math.max(b.held, b.peak))[Math.floor(warm.length / 2)]!;
      console.log(`  server memory, a first call on a new book (median of ${WARM_BOOKS}): ${show(mid)}, ${ms(mid.took)} ms (target <= 25: ${verdict(Math.max(mid.held, mid.peak) <= 25)})`);
      const later = await time(() => first!.call("find_contacts", { query: "ström", limit: 20 }), 50);
      console.log(`  later calls: p50 ${ms(later.p50)} ms, p95 ${ms(later.p95)} ms  (target <= 50: ${verdict(later.p95 <= 50)})`);
      const t0 = performance.now();
      await far!.call("find_contacts", { limit: 20 });
      const farFirst = performance.now() - t0;
      console.log(`  first call, ${RTT} ms RTT: ${ms(farFirst)} ms  (target <= 5000: ${verdict(farFirst <= 5000)})`);
      const farLater = await time(() => far!.call("find_contacts", { limit: 20 }), 20);
      console.log(`  later calls, ${RTT} ms RTT: p50 ${ms(farLater.p50)} ms (STATUS of Sent and INBOX: 2 round trips)`);
    } finally {
      server.kill();
    }
  } finally {
    await relay.stop();
    await dovecot.stop();
  }
}

if (import.meta.main) await contactsRows();
