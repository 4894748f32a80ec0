// Several mailboxes in one connection (docs/design.md §3, docs/tools.md "Accounts"): alice and bob on
// the harness Dovecot plus a third mailbox whose server is down, through the SDK client. A
// one-mailbox connection is checked to answer as before (no `account` in its results).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getHarness, type Harness } from "../support/harness.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { freePort } from "../support/ports.ts";
import { issueTestConnection, issueTestToken, testAccount } from "../support/token.ts";
import { withImap } from "./seed.ts";
import { z } from "zod";
import { TOOLS } from "../../src/mcp/tools/index.ts";

const FOLDER = "Accounts";
let h: Harness;
let srv: TestServer;
let three: Client;
let two: Client;
let one: Client;
const mail = (to: string, subject: string, date: string) =>
  `From: Carol <carol@example.test>\r\nTo: ${to}\r\nSubject: ${subject}\r\nDate: ${date}\r\nMessage-ID: <${subject.replace(/\W/g, "")}@t>\r\n\r\nbody ${subject}\r\n`;

beforeAll(async () => {
  h = await getHarness();
  const { alice, bob } = h.dovecot.users;
  // A folder of this file's own in each mailbox: other files deliver to INBOX on the same harness.
  for (const u of [alice, bob]) await withImap(h.dovecot, u, (c) => c.mailboxCreate(FOLDER).catch(() => {}));
  await h.dovecot.deliver(alice.user, mail(alice.email, "A old", "Mon, 01 Jun 2026 08:00:00 +0000"), FOLDER);
  await h.dovecot.deliver(bob.user, mail(bob.email, "B middle", "Tue, 02 Jun 2026 08:00:00 +0000"), FOLDER);
  await h.dovecot.deliver(alice.user, mail(alice.email, "A new", "Wed, 03 Jun 2026 08:00:00 +0000"), FOLDER);
  srv = await startTestServer();
  const down = { ...testAccount({ user: "dead@example.test", pass: "x", email: "Dead@Example.test" }, { host: "localhost", port: await freePort() }) };
  const a = testAccount(alice, h.dovecot);
  const b = testAccount(bob, h.dovecot);
  three = await connectClient(srv.mcpUrl, (await issueTestConnection(srv.deps, [{ account: a }, { account: b, access: "read" }, { account: down }])).token);
  two = await connectClient(srv.mcpUrl, (await issueTestConnection(srv.deps, [{ account: a }, { account: b }])).token);
  one = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, a));
}, 30_000);
afterAll(async () => {
  for (const c of [three, two, one]) await c?.close();
  await srv?.stop();
});

describe("list_accounts", () => {
  test("names each mailbox in lower case with its access and policy", async () => {
    const { accounts } = await callOk(three, "list_accounts");
    expect(accounts.map((x: { account: string }) => x.account)).toEqual(["alice@example.test", "bob@example.test", "dead@example.test"]);
    expect(accounts[1]).toMatchObject({ access: "read", send_policy: "direct", status: "ok", provider: "custom" });
    expect((await callOk(one, "list_accounts")).accounts).toHaveLength(1);
  });
});

describe("spanning reads", () => {
  test("get_recent_emails without account: newest first by date across mailboxes, the dead one in accounts_failed", async () => {
    const res = await callOk(three, "get_recent_emails", { folder: FOLDER, limit: 100 });
    const subjects = res.emails.map((e: { subject: string }) => e.subject).filter((s: string) => /^[AB] /.test(s));
    expect(subjects.slice(0, 3)).toEqual(["A new", "B middle", "A old"]);
    expect(res.emails.every((e: { account?: string }) => e.account === "alice@example.test" || e.account === "bob@example.test")).toBe(true);
    expect(res.accounts_failed.map((f: { account: string }) => f.account)).toEqual(["dead@example.test"]);
  });

  test("one merged cursor pages the merged order without repeats", async () => {
    const first = await callOk(two, "get_recent_emails", { folder: FOLDER, limit: 1 });
    expect(first.emails[0].subject).toBe("A new");
    expect(typeof first.next_cursor).toBe("string");
    const second = await callOk(two, "get_recent_emails", { folder: FOLDER, limit: 1, cursor: first.next_cursor });
    expect(second.emails[0].subject).toBe("B middle");
    const third = await callOk(two, "get_recent_emails", { folder: FOLDER, limit: 1, cursor: second.next_cursor });
    expect(third.emails[0].subject).toBe("A old");
    expect(textOf(await call(two, "get_recent_emails", { cursor: "span1.e30.AAAA" }))).toContain("cursor");
  });

  test("search_emails and list_mailboxes span too; with account they read one mailbox", async () => {
    const found = await callOk(three, "search_emails", { folder: FOLDER, subject: "middle" });
    expect(found.emails.map((e: { account: string }) => e.account)).toEqual(["bob@example.test"]);
    expect(found).toMatchObject({ total: 1, folders_searched: [FOLDER] });
    const { mailboxes } = await callOk(two, "list_mailboxes");
    expect(new Set(mailboxes.map((m: { account: string }) => m.account))).toEqual(new Set(["alice@example.test", "bob@example.test"]));
    const only = await callOk(two, "get_recent_emails", { folder: FOLDER, account: "Bob@Example.test" });
    expect(only.account).toBe("bob@example.test");
    expect(only.emails.map((e: { subject: string }) => e.subject)).toContain("B middle");
    expect(only.emails.map((e: { subject: string }) => e.subject)).not.toContain("A new");
  });
});

describe("output schemas", () => {
  test("spanning results satisfy each tool's outputSchema", async () => {
    const shapes = new Map(TOOLS.map((t) => [t.name, z.object(t.config.outputSchema).strict()]));
    for (const [name, args] of [["get_recent_emails", { folder: FOLDER }], ["search_emails", { folder: FOLDER, subject: "A" }], ["list_mailboxes", {}]] as const) {
      const res = await callOk(three, name, args);
      expect(shapes.get(name)!.safeParse(res).error?.issues ?? []).toEqual([]);
    }
  });
});

describe("one mailbox per call", () => {
  test("get_email without account on several mailboxes: an argument error naming account and the choices", async () => {
    const res = await call(three, "get_email", { uid: 1 });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("account");
    expect(textOf(res)).toContain("alice@example.test, bob@example.test, dead@example.test");
  });

  test("an unknown account is an argument error", async () => {
    const res = await call(three, "get_recent_emails", { account: "eve@example.test" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("not a mailbox of this connection");
  });

  test("a write on a mailbox connected read-only is a tool error naming it", async () => {
    const res = await call(three, "mark_as_read", { account: "bob@example.test", uids: [1] });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("bob@example.test was connected read-only");
  });

  test("with account, a write runs in that mailbox", async () => {
    const { emails } = await callOk(two, "get_recent_emails", { folder: FOLDER, account: "bob@example.test" });
    const uid = emails.find((e: { subject: string }) => e.subject === "B middle").uid;
    const done = await callOk(two, "flag_email", { folder: FOLDER, account: "bob@example.test", uids: [uid] });
    expect(done).toMatchObject({ updated: 1, account: "bob@example.test" });
  });
});

describe("a one-mailbox connection", () => {
  test("answers as before: no account in its results, account optional", async () => {
    const res = await callOk(one, "get_recent_emails", { folder: FOLDER });
    expect(res.account).toBeUndefined();
    expect(res.accounts_failed).toBeUndefined();
    expect(res.emails[0].account).toBeUndefined();
    expect((await callOk(one, "get_recent_emails", { folder: FOLDER, account: "alice@example.test" })).emails.length).toBe(res.emails.length);
  });
});
