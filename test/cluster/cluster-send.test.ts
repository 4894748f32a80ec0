// The send gate on three instances on one Postgres behind haproxy in round robin (test/support/cluster.ts):
// the send caps count one grant's sends on every instance together, and a send retried after the
// instance that took it was killed (its response cut, then kill -9) is not sent again: another
// instance answers the retry with the first outcome from the store.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { openPostgres } from "../../src/store/db.ts";
import { startCluster, tokenFor, type Cluster } from "../support/cluster.ts";
import { until } from "../support/until.ts";
import { postTool, rpcOf } from "../support/modern-call.ts";

let cl: Cluster;

beforeAll(async () => {
  cl = await startCluster({ MAILBOX_MCP_SEND_LIMITS: "3/h,10/d" });
}, 60_000);
afterAll(async () => {
  await cl?.stop();
}, 20_000);

const tag = () => randomBytes(4).toString("hex");
const delivered = (subject: string) => cl.h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject)).length;

/** send_email as a 2026-07-28 client posts it, to `url` (the balancer's or one instance's /mcp). */
const sendEmail = (url: string, token: string, args: Record<string, unknown>, signal?: AbortSignal) => postTool({ url, token, tool: "send_email", args, signal });
const resultOf = async (res: Response) => (await rpcOf(res)).result as { structuredContent?: Record<string, unknown>; isError?: boolean; content: Array<{ text: string }> };

describe("the send gate on three instances", () => {
  test("send caps: one grant's sends on every instance count together", async () => {
    const token = await tokenFor(cl.h, cl.client("198.51.100.41"), { send: "direct" });
    const subject = `cluster cap ${tag()}`;
    const marks = cl.mark();
    const results = await Promise.all(Array.from({ length: 6 }, () =>
      sendEmail(cl.mcpUrl, token, { to: `stranger-${tag()}@example.net`, subject, text: "x" }).then(resultOf)));
    expect(new Set((await cl.servedAtLeast(marks, 6, (r) => r.path === "/mcp")).map((r) => r.instance)).size).toBe(3);
    expect(results.filter((r) => !r.isError)).toHaveLength(3);
    expect(results.filter((r) => r.isError).every((r) => r.content[0]!.text.includes("at most 3 messages an hour"))).toBe(true);
    expect(delivered(subject)).toBe(3);
  }, 30_000);

  test("retried after the instance that took it was killed: one delivery; another instance answers with the first outcome", async () => {
    const token = await tokenFor(cl.h, cl.client("198.51.100.42"), { send: "direct" });
    const args = { to: `stranger-${tag()}@example.net`, subject: `cluster retry ${tag()}`, text: "once" };
    const victim = cl.instances[0]!;
    const db = await openPostgres(cl.env.MAILBOX_MCP_DATABASE_URL!);
    try {
      const done = async () => Number((await db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM send_ledger WHERE state = 'done'`)[0]!.n);
      const before = await done();
      const cut = new AbortController();
      const first = sendEmail(`http://127.0.0.1:${victim.port}/mcp`, token, args, cut.signal).catch(() => null);
      await until(async () => delivered(args.subject) === 1 && (await done()) > before, { what: "the victim to send it and note the outcome", timeoutMs: 15_000 });
      cut.abort(); // the client never hears back
      await first;
      await victim.kill("SIGKILL");
      const marks = cl.mark();
      const retry = await resultOf(await sendEmail(cl.mcpUrl, token, args));
      expect(retry.structuredContent).toMatchObject({ status: "sent", decision: "repeat", accepted: [args.to] });
      expect((await cl.servedAtLeast(marks, 1, (r) => r.path === "/mcp")).every((r) => r.instance !== victim.name)).toBe(true);
      expect(delivered(args.subject)).toBe(1);
    } finally {
      await db.close();
    }
  }, 60_000);
});
