// `bun run bench`, the part that matters to a user: the mail server 20 ms away (a loopback relay,
// test/support/latency-relay.ts). What a user waits for is round trips, so each row is printed in ms
// and in round trips, against a direct imapflow client doing the same work *freshly* (our read
// functions on a plain ImapFlow: NOOP before reading a folder it already has selected, so it too
// sees other clients' changes). Targets (issue 9): MCP / fresh direct <= 1.0 for the three read
// rows; the first call of a token with no open IMAP connection <= 3.5 round trips waited for, TCP
// handshake and login included (issue 42; it was <= 6 in issue 9).
// A move row too (issue 25): messages moved one by one out of one folder, as a person triages
// INBOX; the direct client makes its view current first (NOOP), the server's move needs no NOOP
// (docs/freshness.md "recheck"). Held to the read rows' bar.
import { testReaders } from "../test/support/content.ts";
import { ImapFlow } from "imapflow";
import { DEFAULT_TIMEOUTS, imapOptions } from "../src/mail/imap/connect.ts";
import { getEmail } from "../src/mail/read/message.ts";
import { searchEmails } from "../src/mail/read/search.ts";
import { recentEmails } from "../src/mail/read/recent.ts";
import { moveEmails } from "../src/mail/write/move.ts";
import type { MailAccount } from "../src/mail/account.ts";
import { startLatencyRelay } from "../test/support/latency-relay.ts";
import { connectClient } from "../test/support/mcp-client.ts";
import { ms, pct, rawCaller, startServer, timeTogether, verdict, WARMUP } from "./bench-lib.ts";

const RTT = Number(process.env.BENCH_RTT_MS ?? 20);
const ITER = Number(process.env.BENCH_RTT_ITERATIONS ?? 40);
const FIRST_CALLS = 12;
/** Messages the move row needs in its folder: one per call of each side, warm-up included. */
export const TRIAGE_MESSAGES = 2 * (ITER + WARMUP);

/** `triage` holds TRIAGE_MESSAGES messages (UIDs 1…) to move to `triaged`, which exists. */
export async function latencyRows(account: MailAccount, folder: string, triage: { from: string; to: string }): Promise<void> {
  const relay = await startLatencyRelay({ host: "127.0.0.1", port: account.imap.port }, RTT);
  const far: MailAccount = { ...account, imap: { ...account.imap, host: "127.0.0.1", port: relay.port } };
  // Tokens 1…FIRST_CALLS reach the mail server through the relay, the next FIRST_CALLS directly (the
  // first call's local work, with no distance, for the round trips it waits for).
  const server = await startServer([...Array.from({ length: FIRST_CALLS + 1 }, () => far), ...Array.from({ length: FIRST_CALLS }, () => account)]);
  const url = `http://localhost:${server.port}/mcp`;
  const direct = new ImapFlow(imapOptions(far, DEFAULT_TIMEOUTS));
  try {
    await direct.connect();
    const client = await connectClient(url, server.tokens[0]!);
    const mcp = rawCaller(url, server.tokens[0]!, (client.transport as { sessionId?: string }).sessionId!);
    console.log(`\nat ${RTT} ms round trip (loopback relay), ${ITER} calls each; MCP raw client vs a fresh direct imapflow client`);
    console.log(`${"row".padEnd(22)} ${"direct p50 ms (RTs)".padStart(20)} ${"MCP p50 ms (RTs)".padStart(18)} ratio`);
    const rows: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
      ["get_recent_emails(20)", () => recentEmails(direct, { folder, limit: 20, beforeUid: null, unreadOnly: false }),
        () => mcp.call("get_recent_emails", { folder, limit: 20 })],
      ["search_emails(from)", () => searchEmails(direct, { folder, from: "dave@example.org", limit: 20, beforeUid: null }),
        () => mcp.call("search_emails", { folder, from: "dave@example.org" })],
      ["get_email", () => getEmail(direct, { folder, uid: 500, maxChars: 20_000 }, testReaders()), () => mcp.call("get_email", { folder, uid: 500 })],
      ...moveRow(mcp, direct, triage),
    ];
    const rts = (v: number) => `${ms(v)} (${(v / RTT).toFixed(1)})`.padStart(18);
    for (const [name, d, m] of rows) {
      const [td, tm] = await timeTogether([d, m], ITER);
      const ratio = tm!.p50 / td!.p50;
      console.log(`${name.padEnd(22)} ${rts(td!.p50).padStart(20)} ${rts(tm!.p50)} ${ratio.toFixed(2).padStart(5)}  ${verdict(ratio <= 1.0)}`);
    }
    await client.close();
    await firstCalls(url, server.tokens.slice(1, FIRST_CALLS + 1), server.tokens.slice(FIRST_CALLS + 1), folder, relay, await relayRoundTrip(direct));
  } finally {
    await direct.logout().catch(() => {});
    server.kill();
    await relay.stop();
  }
}

/**
 * One tools/call per token whose IMAP connection is not open yet: connect, LOGIN + EXAMINE in one
 * turn (src/mail/imap/early-session.ts), and the FETCH in that turn too where the process has read
 * the folder's newest page before, as it has here on token 0 (src/mail/imap/early-prefetch.ts). In time over RTT, and in round trips waited for:
 * (p50 through the relay - p50 on loopback) / RTT, the local work (both servers' CPU) left out, as
 * bench-conversation.ts counts them.
 */
async function firstCalls(url: string, farTokens: string[], nearTokens: string[], folder: string, relay: { sent: number }, unit: number): Promise<void> {
  const far = await coldCalls(url, farTokens, folder, relay);
  const near = await coldCalls(url, nearTokens, folder, { sent: 0 });
  const waited = (far.p50 - near.p50) / unit;
  console.log(`first get_recent_emails(20) of a token, IMAP not yet connected: p50 ${ms(far.p50)} ms = ${(far.p50 / RTT).toFixed(1)} x ${RTT} ms ` +
    `(TCP handshake and greeting included; ${far.writes} client writes); on loopback ${ms(near.p50)} ms; ` +
    `a NOOP through the relay ${ms(unit)} ms: ${waited.toFixed(1)} round trips waited for  ${verdict(waited <= 3.5)}`);
}

/** The relay's round trip as a client waits for it (its timers' lateness included): a NOOP's p50. */
export async function relayRoundTrip(client: ImapFlow): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await client.noop();
    samples.push(performance.now() - t);
  }
  return pct(samples.sort((a, b) => a - b), 0.5);
}

async function coldCalls(url: string, tokens: string[], folder: string, relay: { sent: number }): Promise<{ p50: number; writes: number }> {
  const samples: number[] = [];
  const writes: number[] = [];
  for (const token of tokens) {
    const client = await connectClient(url, token); // the MCP session: local HTTP, no IMAP yet
    const mcp = rawCaller(url, token, (client.transport as { sessionId?: string }).sessionId!);
    const sentBefore = relay.sent;
    const t = performance.now();
    await mcp.call("get_recent_emails", { folder, limit: 20 });
    samples.push(performance.now() - t);
    writes.push(relay.sent - sentBefore);
    await client.close();
  }
  samples.sort((a, b) => a - b);
  return { p50: pct(samples, 0.5), writes: writes.sort((a, b) => a - b)[writes.length >> 1]! };
}

/** move_email one message at a time out of one folder: the direct side takes the odd UIDs, MCP the even. */
function moveRow(mcp: ReturnType<typeof rawCaller>, direct: ImapFlow, triage: { from: string; to: string }): Array<[string, () => Promise<unknown>, () => Promise<unknown>]> {
  let [odd, even] = [-1, 0];
  return [["move_email, one by one", () => moveEmails(direct, triage.from, [(odd += 2)], triage.to),
    () => mcp.call("move_email", { folder: triage.from, uids: [(even += 2)], destination: triage.to })]];
}
