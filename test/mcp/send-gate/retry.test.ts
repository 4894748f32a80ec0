// At-most-once delivery (docs/design.md §3 "Send policy"): a client whose response stream broke sends
// the same tools/call again (2026-07-28 clients are expected to). The retry never sends a second
// copy: while the first is still sending it waits for its outcome and answers with it; once done it
// answers with the first outcome at once; when the first one's instance stopped mid-send (its claim
// outlived the lease) it says so and sends nothing. The SMTP receiver is held after it has the
// data and before its 250, so the first request is caught in flight.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { SENDING_LEASE_MS } from "../../../src/sending/repeat.ts";
import { getHarness, type Harness } from "../../support/harness.ts";
import { startTestServer, type TestServer } from "../../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../../support/token.ts";
import { until } from "../../support/until.ts";
import { postTool, rpcOf } from "../../support/modern-call.ts";

let h: Harness;
let srv: TestServer;
let token: string;
const tag = () => randomBytes(4).toString("hex");

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  const account = testAccount(h.dovecot.users.alice, { host: "localhost", port: h.dovecot.port }, h.smtp.port);
  token = (await issueTestGrant(srv.deps, account, "email:read email:write", undefined, "direct")).token;
}, 30_000);
afterAll(() => srv.stop());

/** send_email as a 2026-07-28 client posts it; `signal` cuts the response. */
const post = (args: Record<string, unknown>, signal?: AbortSignal) => postTool({ url: srv.mcpUrl, token, tool: "send_email", args, signal });
const result = async (res: Response) => (await rpcOf(res)).result as { structuredContent?: Record<string, unknown>; isError?: boolean; content: Array<{ text: string }> };

const delivered = (subject: string) => h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject)).length;

describe("a retried request never sends a second copy", () => {
  test("retried while the first is still sending: waits, then gets the first outcome", async () => {
    const args = { to: `stranger-${tag()}@example.net`, subject: `cut ${tag()}`, text: "once" };
    const release = h.smtp.pause();
    const cut = new AbortController();
    const first = post(args, cut.signal).catch(() => null);
    await until(() => delivered(args.subject) === 1, { what: "the SMTP receiver to have the message" });
    cut.abort(); // the response stream breaks; the server goes on
    await first;
    // The retry finds the first one's claim (still sending: the receiver holds its 250) and waits on it.
    const ledger = srv.deps.store.sendLedger;
    const find = ledger.find.bind(ledger);
    let looked = 0;
    ledger.find = (async (...a: Parameters<typeof find>) => { looked++; return find(...a); }) as typeof ledger.find;
    const retry = post(args).then(result);
    try {
      await until(() => looked >= 2, { what: "the retry to look at the ledger twice (found the send under way, waited)" });
    } finally {
      ledger.find = find;
    }
    expect(delivered(args.subject)).toBe(1);
    release();
    const r = await retry;
    expect(r.structuredContent).toMatchObject({ status: "sent", decision: "repeat", accepted: [args.to] });
    expect(r.content[0]!.text).toContain("it was not sent again");
    expect(delivered(args.subject)).toBe(1);
    // And once more, later: the first outcome at once.
    expect((await result(await post(args))).structuredContent).toMatchObject({ decision: "repeat" });
    expect(delivered(args.subject)).toBe(1);
  });

  test("the first request's instance stopped mid-send (its claim outlived the lease): the retry says so and sends nothing", async () => {
    const args = { to: `stranger-${tag()}@example.net`, subject: `stuck ${tag()}`, text: "once" };
    const release = h.smtp.pause();
    const first = post(args).then(result);
    await until(() => delivered(args.subject) === 1, { what: "the SMTP receiver to have the message" });
    srv.deps.clock.advance(SENDING_LEASE_MS);
    const r = await result(await post(args));
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain("Not sent again: an identical request started sending this message (Message-ID <");
    expect(r.content[0]!.text).toContain("stopped before saying whether it went out");
    release();
    expect((await first).structuredContent).toMatchObject({ status: "sent", decision: "sent_directly" });
    expect(delivered(args.subject)).toBe(1);
  });

  test("the outcome lost after the send (a power cut undid its commit, which does not wait for the disk): a retry sends nothing", async () => {
    const args = { to: `stranger-${tag()}@example.net`, subject: `lost ${tag()}`, text: "once" };
    // What the disk holds after such a cut: the claim (synced before SMTP), not the outcome.
    const claims = srv.deps.store.sendClaims;
    const settle = claims.settle;
    claims.settle = async () => {};
    try {
      expect((await result(await post(args))).structuredContent).toMatchObject({ status: "sent", decision: "sent_directly" });
    } finally {
      claims.settle = settle;
    }
    srv.deps.clock.advance(SENDING_LEASE_MS); // the server came back after the cut
    const r = await result(await post(args));
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain("stopped before saying whether it went out");
    expect(delivered(args.subject)).toBe(1);
  });

  test("the same message after the 10-minute window is a new message", async () => {
    const args = { to: `stranger-${tag()}@example.net`, subject: `later ${tag()}`, text: "twice, ten minutes apart" };
    expect((await result(await post(args))).structuredContent).toMatchObject({ decision: "sent_directly" });
    srv.deps.clock.advance(10 * 60_000);
    expect((await result(await post(args))).structuredContent).toMatchObject({ decision: "sent_directly" });
    expect(delivered(args.subject)).toBe(2);
  });
});
