// Per mailbox what was per connection (docs/design.md §3 "Several mailboxes"): the send policy, the
// caps (MAILBOX_MCP_SEND_LIMITS counted for each mailbox), whom a mailbox has written to, the SMTP
// login it sends with, the activity row naming it; and the message resource and completions naming
// an account.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Client as HostClient, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { getHarness, type Harness } from "../support/harness.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestConnection, testAccount } from "../support/token.ts";

let h: Harness;
let srv: TestServer;
let client: Client;
let both: Client;
let grantId: string;
const tag = () => Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer({ config: { sendLimits: { perHour: 2, perDay: 10 } } });
  const imap = { host: "localhost", port: h.dovecot.port };
  const issued = await issueTestConnection(srv.deps, [
    { account: testAccount(h.dovecot.users.alice, imap, h.smtp.port), sendPolicy: "direct" },
    { account: testAccount(h.dovecot.users.bob, imap, h.smtp.port), sendPolicy: "never" },
  ]);
  grantId = issued.grantId;
  client = await connectClient(srv.mcpUrl, issued.token);
  const direct = await issueTestConnection(srv.deps, [
    { account: testAccount(h.dovecot.users.alice, imap, h.smtp.port) }, { account: testAccount(h.dovecot.users.bob, imap, h.smtp.port) }]);
  both = await connectClient(srv.mcpUrl, direct.token);
  await h.dovecot.deliver(h.dovecot.users.bob.user,
    `From: Carol <carol@example.test>\r\nTo: bob@example.test\r\nSubject: for the resource\r\nMessage-ID: <res-${tag()}@t>\r\n\r\nhello bob\r\n`);
}, 30_000);
afterAll(async () => {
  await client?.close();
  await both?.close();
  await srv?.stop();
});

describe("sending per mailbox", () => {
  test("send_email without account on two mailboxes is an argument error; each mailbox keeps its own policy", async () => {
    const none = await call(client, "send_email", { to: "x@example.net", subject: "which?", text: "x" });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain("account");
    const fromBob = await call(client, "send_email", { account: "bob@example.test", to: "x@example.net", subject: `never ${tag()}`, text: "x" });
    expect(fromBob.isError).toBe(true);
    const subject = `direct ${tag()}`;
    const fromAlice = await callOk(client, "send_email", { account: "alice@example.test", to: `y-${tag()}@example.net`, subject, text: "x" });
    expect(fromAlice).toMatchObject({ status: "sent", account: "alice@example.test" });
    const sent = h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject));
    expect(sent.map((m) => m.user)).toEqual(["alice@example.test"]);
  });

  test("the caps count per mailbox, and the activity row names the mailbox", async () => {
    const send = (account: string) => call(both, "send_email", { account, to: `z-${tag()}@example.net`, subject: `cap ${tag()}`, text: "x" });
    expect((await send("alice@example.test")).isError).toBeFalsy();
    expect((await send("alice@example.test")).isError).toBeFalsy();
    const over = await send("alice@example.test");
    expect(textOf(over)).toContain("at most 2 messages an hour");
    // bob's hour is his own.
    expect((await send("bob@example.test")).isError).toBeFalsy();
    const rows = await srv.deps.store.activity.list({ grant: grantId });
    expect(rows.some((r) => r.details?.account === "alice@example.test" && r.tool === "send_email")).toBe(true);
  });
});

describe("the message resource and completions", () => {
  test("mailbox://message/{account}/{folder}/{uid} reads that mailbox; completion offers the accounts", async () => {
    const { emails } = await callOk(client, "get_recent_emails", { account: "bob@example.test", limit: 1 });
    const uri = `mailbox://message/${encodeURIComponent("bob@example.test")}/INBOX/${emails[0].uid}`;
    const read = await client.readResource({ uri });
    expect((read.contents[0] as { text: string }).text).toContain(emails[0].subject);
    const done = await client.complete({ ref: { type: "ref/resource", uri: "mailbox://message/{account}/{folder}/{uid}" }, argument: { name: "account", value: "b" } });
    expect(done.completion.values).toEqual(["bob@example.test"]);
    const prompt = await client.complete({ ref: { type: "ref/prompt", name: "triage_inbox" }, argument: { name: "account", value: "" } });
    expect(prompt.completion.values).toEqual(["alice@example.test", "bob@example.test"]);
  });
});

describe("the review card's answer", () => {
  test("confirm_send sends a message held in the second mailbox from that mailbox", async () => {
    const imap = { host: "localhost", port: h.dovecot.port };
    const { token, grantId: reviewed } = await issueTestConnection(srv.deps, [
      { account: testAccount(h.dovecot.users.alice, imap, h.smtp.port) },
      { account: testAccount(h.dovecot.users.bob, imap, h.smtp.port), sendPolicy: "new_recipients" }]);
    const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
    const host = new HostClient({ name: "host", version: "0" }, { capabilities: UI });
    await host.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      const subject = `review from bob ${tag()}`;
      const held = (await host.callTool({ name: "send_email", arguments: { account: "bob@example.test", to: `s-${tag()}@example.net`, subject, text: "x" } })) as CallToolResult;
      expect(held.structuredContent).toMatchObject({ status: "held_as_draft", account: "bob@example.test" });
      const review = (held._meta as Record<string, { token: string }>)["mailbox-mcp/review"]!.token;
      const sent = (await host.callTool({ name: "confirm_send", arguments: { review, decision: "send" } })) as CallToolResult;
      expect(sent.structuredContent).toMatchObject({ status: "sent" });
      expect(h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject)).map((m) => m.user)).toEqual(["bob@example.test"]);
      // Its activity row is filed under the mailbox it went out from: named in the row, and on bob's owner page.
      const rows = await srv.deps.store.activity.list({ grant: reviewed });
      expect(rows.filter((r) => r.tool === "confirm_send").map((r) => r.details?.account)).toEqual(["bob@example.test"]);
      const bobKey = (await srv.deps.store.mailboxes.list(reviewed))[1]!.mailboxKey!;
      expect((await srv.deps.store.ownerView.activityOf(bobKey, { grantId: reviewed })).rows.some((r) => r.tool === "confirm_send")).toBe(true);
    } finally {
      await host.close();
    }
  });
});
