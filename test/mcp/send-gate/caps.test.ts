// Send caps per grant (docs/design.md §7, MAILBOX_MCP_SEND_LIMITS): counted in the store, so two
// instances on one Postgres count the same sends; the refusal says when sending is possible again;
// a full cap refuses before the person is asked or a draft is made; a send the SMTP server refused
// does not count. Two real servers here share one Postgres schema (separate connection pools).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { openPostgres, type Db } from "../../../src/store/db.ts";
import { migrate } from "../../../src/store/schema.ts";
import { storesOver } from "../../../src/store/store.ts";
import type { SendPolicy } from "../../../src/send-policy.ts";
import { findBySubject, loginImap } from "../../support/imap.ts";
import { getHarness, type Harness } from "../../support/harness.ts";
import { call, connectClient, startTestServer, textOf, type TestServer } from "../../support/mcp-client.ts";
import { freshDatabaseUrl } from "../../support/stores.ts";
import { issueTestGrant, testAccount } from "../../support/token.ts";

let h: Harness;
const servers: TestServer[] = [];
const dbs: Db[] = [];
const open: Array<{ close(): Promise<void> }> = [];
const tag = () => randomBytes(4).toString("hex");
const HOUR = 3_600_000;

beforeAll(async () => {
  h = await getHarness();
}, 30_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(dbs.map((db) => db.close()));
});

/** `n` servers on one fresh Postgres schema with these caps. */
async function cluster(n: number, perHour: number, perDay: number): Promise<TestServer[]> {
  const url = await freshDatabaseUrl("caps");
  const made: TestServer[] = [];
  for (let i = 0; i < n; i++) {
    const db = await openPostgres(url);
    if (i === 0) await migrate(db);
    dbs.push(db);
    made.push(await startTestServer({ config: { sendLimits: { perHour, perDay } }, makeStore: (key, clock) => storesOver(db, key, clock) }));
  }
  // One time on every instance: their manual clocks started a few milliseconds apart.
  for (const s of made) s.deps.clock.set(made[0]!.deps.clock());
  servers.push(...made);
  return made;
}

async function grantToken(srv: TestServer, policy: SendPolicy = "direct"): Promise<string> {
  const account = testAccount(h.dovecot.users.alice, { host: "localhost", port: h.dovecot.port }, h.smtp.port);
  return (await issueTestGrant(srv.deps, account, "email:read email:write", undefined, policy)).token;
}

async function clients(srvs: TestServer[], token: string) {
  const made = await Promise.all(srvs.map((s) => connectClient(s.mcpUrl, token)));
  open.push(...made);
  return made;
}

const send = (client: Awaited<ReturnType<typeof clients>>[number], subject: string, to = `stranger-${tag()}@example.net`) =>
  call(client, "send_email", { to, subject, text: "x" });

describe("send caps", () => {
  test("counted across two instances; the refusal says when sending is possible again; an hour later it is", async () => {
    const [a, b] = await cluster(2, 3, 4);
    const token = await grantToken(a!);
    const [ca, cb] = await clients([a!, b!], token);
    const subject = `capped ${tag()}`;
    const results = await Promise.all([ca, cb, ca, cb, ca, cb].map((c) => send(c!, subject)));
    expect(results.filter((r) => !r.isError)).toHaveLength(3);
    const refused = results.filter((r) => r.isError).map(textOf);
    expect(refused).toHaveLength(3);
    expect(refused[0]).toContain("this connection may send at most 3 messages an hour, and that many went out in the last hour");
    expect(refused[0]).toMatch(/Sending is possible again at \d\d:\d\d UTC, in (59|60) minutes\. Nothing was sent or saved/);
    expect(h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject))).toHaveLength(3);
    // An hour later on both clocks (the sessions have expired: new ones): one more fits the day's 4, then the day is full.
    for (const s of [a!, b!]) s.deps.clock.advance(HOUR);
    const [la, lb] = await clients([a!, b!], token);
    expect((await send(lb!, subject)).isError).toBeFalsy();
    const day = await send(la!, subject);
    expect(textOf(day)).toContain("at most 4 messages a day, and that many went out in the last day");
    expect(textOf(day)).toMatch(/in (22|23) hours/);
  }, 30_000);

  test("a full cap refuses before anyone is asked or a draft is made; a send the server refused does not count", async () => {
    const [a] = await cluster(1, 1, 10);
    const [c] = await clients([a!], await grantToken(a!, "new_recipients"));
    h.smtp.failNext = { code: 451, message: "4.3.0 try later" };
    const failed = await send(c!, `refused ${tag()}`, h.dovecot.users.alice.email);
    expect(failed.isError).toBe(true);
    expect((await send(c!, `fits ${tag()}`, h.dovecot.users.alice.email)).isError).toBeFalsy(); // the failed one left the hour's one slot
    const subject = `full ${tag()}`;
    const res = await send(c!, subject); // a stranger: would be held as a draft, but the cap is full
    expect(textOf(res)).toContain("at most 1 message an hour");
    const imap = await loginImap(h.dovecot, h.dovecot.users.alice);
    try {
      expect(await findBySubject(imap, "Drafts", subject)).toHaveLength(0);
    } finally {
      await imap.logout();
    }
  }, 30_000);
});
