// A spanning get_recent_emails planned from what each mailbox's connection knows
// (src/mcp/accounts/plan.ts) answers exactly what the unplanned read of a fresh connection answers:
// when nothing changed, and when a mailbox got mail since whose date puts it below the page (its
// share shrinks, so the other mailbox must give more than it was asked for).
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getHarness, type Harness } from "../support/harness.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestConnection, testAccount } from "../support/token.ts";
import { withImap } from "./seed.ts";
import type { MailAccount } from "../../src/mail/account.ts";
import * as recent from "../../src/mail/read/recent.ts";

const FOLDER = "SpanPlan";
let h: Harness;
let srv: TestServer;
let accounts: MailAccount[];
const opened: Client[] = [];

const day = (d: number) => new Date(Date.UTC(2026, 4, d, 8)).toUTCString().replace("GMT", "+0000");
const mail = (to: string, subject: string, date: string) =>
  `From: Carol <carol@example.test>\r\nTo: ${to}\r\nSubject: ${subject}\r\nDate: ${date}\r\nMessage-ID: <${subject.replace(/\W/g, "")}.plan@t>\r\n\r\nbody\r\n`;

/** A new connection of both mailboxes: its IMAP connections are not open, so its first spanning read is not planned. */
async function connection(): Promise<Client> {
  const client = await connectClient(srv.mcpUrl, (await issueTestConnection(srv.deps, accounts.map((account) => ({ account })))).token);
  opened.push(client);
  return client;
}

type Page = { emails: Array<{ uid: number; account: string; subject: string }>; next_cursor: string | null };
const page = async (c: Client, cursor?: string) => (await callOk(c, "get_recent_emails", { folder: FOLDER, limit: 5, ...(cursor ? { cursor } : {}) })) as Page;
const shown = (p: Page) => p.emails.map((e) => `${e.account} ${e.uid} ${e.subject}`);

/** The page and the one after it (through next_cursor). */
async function twoPages(c: Client): Promise<string[][]> {
  const first = await page(c);
  return [shown(first), first.next_cursor ? shown(await page(c, first.next_cursor)) : []];
}

beforeAll(async () => {
  h = await getHarness();
  const { alice, bob } = h.dovecot.users;
  for (const u of [alice, bob]) await withImap(h.dovecot, u, (c) => c.mailboxCreate(FOLDER).catch(() => {}));
  // Alice on odd days, Bob on even ones: the merged page alternates.
  for (let d = 1; d <= 12; d++) {
    const u = d % 2 ? alice : bob;
    await h.dovecot.deliver(u.user, mail(u.email, `${u === alice ? "A" : "B"} day ${d}`, day(d)), FOLDER);
  }
  accounts = [testAccount(alice, h.dovecot), testAccount(bob, h.dovecot)];
  srv = await startTestServer();
}, 30_000);
afterAll(async () => {
  for (const c of opened) await c.close();
  await srv?.stop();
});

describe("a planned spanning read", () => {
  test("answers as an unplanned one, page and cursor, when nothing changed", async () => {
    const c = await connection();
    const unplanned = await twoPages(c);
    expect(unplanned[0]!.map((l) => l.split(" ").slice(-1)[0])).toEqual(["12", "11", "10", "9", "8"]);
    const reads = spyOn(recent, "recentEmails");
    expect(await twoPages(c)).toEqual(unplanned); // the connections are open now: planned
    // The first page asked each mailbox for what it gives the page (3 + 2), not 5 each.
    expect(reads.mock.calls.slice(0, 2).map(([, q]) => q.planned).sort()).toEqual([2, 3]);
    reads.mockRestore();
  });

  test("a mailbox that got mail dated below the page since: the other gives more than planned, as a fresh read", async () => {
    const c = await connection();
    await page(c);
    await page(c); // planned from here on: the top of each mailbox is known
    const { bob } = h.dovecot.users;
    await h.dovecot.deliver(bob.user, mail(bob.email, "B late, dated day 0", day(0)), FOLDER);
    const planned = await twoPages(c);
    expect(planned).toEqual(await twoPages(await connection()));
    // Each mailbox keeps its own (UID) order in the merge: Bob's head is now day 0, so Alice gives all five.
    expect(planned[0]!.map((l) => l.split(" ").slice(-1)[0])).toEqual(["11", "9", "7", "5", "3"]);
  });
});
