// The four write tools through the official SDK client, a real server and a real token, checked on
// the harness Dovecot + SMTP: results, and that every bad call is a clear error that changes nothing.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { randomBytes } from "node:crypto";
import { encodeAccount, type MailAccount } from "../../src/mail/account.ts";
import { findBySubject, loginImap } from "../support/imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

let h: Harness;
let srv: TestServer;
let mcp: Client;
let readOnly: Client;
let readOnlyTokenValue: string;
let imap: ImapFlow; // alice, to check on the server what the tools did
let bobImap: ImapFlow;
const tag = () => randomBytes(4).toString("hex");

/** A token granted only email:read, through the same store path as issueTestToken. */
async function readOnlyToken(account: MailAccount): Promise<string> {
  const { grants: g, pending } = srv.deps;
  const { requestId } = await pending.create({ redirectUri: "http://localhost:6274/oauth/callback", codeChallenge: "x".repeat(43), state: "s", resource: null }, 600_000);
  const code = randomBytes(24).toString("hex");
  await g.issueCode(code, (await pending.get(requestId))!, encodeAccount(account), 300_000, null, { sendPolicy: "direct" });
  const token = randomBytes(32).toString("hex");
  await g.redeemCode(code, (await g.findCode(code))!, token, "email:read", 86_400_000);
  return token;
}


beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  const account = testAccount(h.dovecot.users.alice, { host: "localhost", port: h.dovecot.port }, h.smtp.port);
  mcp = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, account));
  readOnlyTokenValue = await readOnlyToken(account);
  readOnly = await connectClient(srv.mcpUrl, readOnlyTokenValue);
  [imap, bobImap] = await Promise.all([loginImap(h.dovecot, h.dovecot.users.alice), loginImap(h.dovecot, h.dovecot.users.bob)]);
}, 30_000);
afterEach(() => {
  h.smtp.rejectRecipients.clear();
  h.smtp.failNext = undefined;
});
afterAll(async () => {
  await Promise.all([mcp.close(), readOnly.close()]);
  await Promise.all([imap.logout(), bobImap.logout()]);
  await srv.stop();
});


async function seed(count: number): Promise<{ folder: string; uids: number[] }> {
  const folder = `W5-mcp-${tag()}`;
  await imap.mailboxCreate(folder);
  for (let i = 0; i < count; i++) await h.dovecot.deliver("alice", plainText({ subject: `seed ${folder} ${i}`, messageId: `<${folder}-${i}@example.test>` }), folder);
  return { folder, uids: (await findBySubject(imap, folder, "seed")).map((m) => m.uid) };
}

/** A snapshot of everything a write tool could change. */
async function state(folder: string, subject: string) {
  return {
    smtp: h.smtp.messages.length,
    drafts: (await findBySubject(imap, "Drafts", subject)).length,
    sent: (await findBySubject(imap, "Sent", subject)).length,
    folder: (await findBySubject(imap, folder, "seed")).map((m) => `${m.uid}:${m.seen}`),
  };
}

describe("tools/list", () => {
  test("the write tools are listed with annotations and output schemas", async () => {
    const { tools } = await mcp.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ["draft_email", "send_email", "mark_as_read", "move_email"]) {
      expect(byName[name]?.annotations?.readOnlyHint).toBe(false);
      expect(byName[name]?.outputSchema).toBeTruthy();
      expect(byName[name]?.description?.length).toBeGreaterThan(80);
    }
    expect(byName.send_email!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(byName.move_email!.annotations?.destructiveHint).toBe(true);
    expect(byName.mark_as_read!.annotations?.idempotentHint).toBe(true);
  });
});

describe("happy paths", () => {
  test("draft_email: reply draft in Drafts, threaded", async () => {
    const { folder, uids } = await seed(1);
    const res = await callOk(mcp, "draft_email", { to: "bob@example.test", text: "Draft reply", reply_to_uid: uids[0], reply_folder: folder });
    expect(Object.keys(res).sort()).toEqual(["folder", "message_id", "uid"]);
    const [draft] = await findBySubject(imap, "Drafts", `Re: seed ${folder}`);
    expect(draft?.uid).toBe(res.uid);
    const parsed = await simpleParser(draft!.raw);
    expect(parsed.messageId).toBe(res.message_id);
    expect(parsed.inReplyTo).toBe(`<${folder}-0@example.test>`);
  });

  test("send_email: attachment intact at bob's, envelope right, copy in Sent", async () => {
    const subject = `mcp send ${tag()}`;
    const bytes = randomBytes(4096);
    const res = await call(mcp, "send_email", { to: ["bob@example.test"], subject, text: "hi", attachments: [{ filename: "r.bin", content_base64: bytes.toString("base64") }] });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toEqual({
      status: "sent", decision: "sent_directly", message_id: expect.stringMatching(/^<.+@example\.test>$/), accepted: ["bob@example.test"], rejected: [], saved_to: "Sent",
      draft: null, reason: null, preview: null, from: "alice@example.test",
    });
    expect(textOf(res)).toContain("A copy is in Sent");
    expect(h.smtp.messages.at(-1)!.to).toEqual(["bob@example.test"]);
    const got = await simpleParser((await findBySubject(bobImap, "INBOX", subject))[0]!.raw);
    expect(Buffer.compare(got.attachments[0]!.content, bytes)).toBe(0);
    const sentCopy = await findBySubject(imap, "Sent", subject);
    expect(sentCopy[0]?.seen).toBe(true);
  });

  test("a reply to a hostile parent: ids parsed, References trimmed, every line within 998 octets", async () => {
    const folder = `Hostile-${tag()}`;
    await imap.mailboxCreate(folder);
    const long = `<${"L".repeat(970)}@x.test>`; // 978 octets: still fits "In-Reply-To: " in 998
    const chain = Array.from({ length: 40 }, (_, i) => `<r${i}@x.test>`);
    const subject = `hostile ${tag()}`;
    const raw = plainText({ subject, messageId: "<parent@x.test> Bcc: victim@evil.test", inReplyTo: "<r39@x.test> (junk) Cc: x@evil.test",
      references: ["<r0@x.test>", "<not an id>", ...chain.slice(1), long, "Bcc:", "victim@evil.test"] });
    await h.dovecot.deliver("alice", raw, folder);
    const [parent] = await findBySubject(imap, folder, subject);
    const res = await callOk(mcp, "draft_email", { to: "bob@example.test", text: "reply", reply_to_uid: parent!.uid, reply_folder: folder });
    const [draft] = await findBySubject(imap, "Drafts", `Re: ${subject}`);
    expect(draft?.uid).toBe(res.uid);
    const head = draft!.raw.toString("utf8").split("\r\n\r\n")[0]!;
    expect(head).not.toContain("victim");
    expect(head).not.toContain("evil.test");
    expect(Math.max(...head.split("\r\n").map((l) => Buffer.byteLength(l)))).toBeLessThanOrEqual(998);
    const parsed = await simpleParser(draft!.raw);
    expect(parsed.inReplyTo).toBe("<parent@x.test>");
    const refs = parsed.references as string[];
    expect(refs).toHaveLength(20);
    expect(refs[0]).toBe("<r0@x.test>");
    expect(refs.at(-2)).toBe(long);
    expect(refs.at(-1)).toBe("<parent@x.test>");
  });

  test("single-label recipient domains (bob@localhost, me@homelab) are accepted", async () => {
    const subject = `single label ${tag()}`;
    const sent = await callOk(mcp, "send_email", { to: "Bob <bob@localhost>", cc: ["me@homelab"], subject, text: "hi" });
    expect(sent.accepted).toEqual(["bob@localhost", "me@homelab"]);
    expect(h.smtp.messages.at(-1)!.to).toEqual(["bob@localhost", "me@homelab"]);
    const draft = await callOk(mcp, "draft_email", { to: "me@homelab", subject, text: "draft" });
    expect(draft.uid).toBeGreaterThan(0);
  });

  test("mark_as_read and move_email", async () => {
    const { folder, uids } = await seed(2);
    expect(await callOk(mcp, "mark_as_read", { folder, uids })).toEqual({ folder, updated: 2 });
    expect((await findBySubject(imap, folder, "seed")).every((m) => m.seen)).toBe(true);
    const unread = await call(mcp, "mark_as_read", { folder, uids: [uids[0], 77777], read: false });
    expect(unread.structuredContent).toEqual({ folder, updated: 1 });
    expect(textOf(unread)).toContain("77777");
    const moved = await callOk(mcp, "move_email", { folder, uids: [uids[1]], destination: "Archive" });
    expect(moved.from).toBe(folder);
    expect(moved.to).toBe("Archive");
    const [{ uid, new_uid }] = moved.moved;
    expect(uid).toBe(uids[1]);
    const archived = (await findBySubject(imap, "Archive", `seed ${folder}`)).map((m) => m.uid);
    expect(archived).toEqual([new_uid]);
    expect((await findBySubject(imap, folder, "seed")).map((m) => m.uid)).toEqual([uids[0]!]);
  });
});

describe("bad input: a clear error, nothing changed", () => {
  const big = "A".repeat(Math.ceil((20 * 1024 * 1024 + 10) / 3) * 4); // just over 20 MB decoded
  const cases: Array<[string, string, (f: string, uids: number[], s: string) => Record<string, unknown>, RegExp]> = [
    ["empty to", "send_email", (_f, _u, subject) => ({ to: [], subject, text: "x" }), /to: at least one recipient/],
    ["malformed address", "send_email", (_f, _u, subject) => ({ to: "bob@", subject, text: "x" }), /to: "bob@" is not a valid email address/],
    ["injected header", "draft_email", (_f, _u, subject) => ({ to: "bob@example.test\r\nBcc: x@evil.test", subject }), /line break/],
    ["invalid base64", "send_email", (_f, _u, subject) => ({ to: "bob@example.test", subject, text: "x", attachments: [{ filename: "a.bin", content_base64: "abc$" }] }), /attachments\[0\]\.content_base64: is not valid base64/],
    ["oversized attachment", "send_email", (_f, _u, subject) => ({ to: "bob@example.test", subject, text: "x", attachments: [{ filename: "a.bin", content_base64: big }] }), /attachments: 20\.0 MB in all; at most 20 MB/],
    ["no subject, not a reply", "draft_email", () => ({ to: "bob@example.test", text: "x" }), /subject: is required/],
    ["101 uids", "mark_as_read", (folder) => ({ folder, uids: Array.from({ length: 101 }, (_, i) => i + 1) }), /uids/],
    ["negative uid", "mark_as_read", (folder, uids) => ({ folder, uids: [uids[0], -3] }), /uids/],
    ["unknown folder", "mark_as_read", () => ({ folder: "No-Such-Folder", uids: [1] }), /"No-Such-Folder" does not exist.*INBOX/],
    ["unknown uids", "mark_as_read", (folder) => ({ folder, uids: [88888] }), /uid 88888 is no longer in/],
    ["unknown destination", "move_email", (folder, uids) => ({ folder, uids, destination: "Nowhere" }), /destination: folder "Nowhere" does not exist\. Existing folders: .*Archive/],
    ["same folder", "move_email", (folder, uids) => ({ folder, uids, destination: folder }), /destination: is the same folder/],
    ["101 uids (move)", "move_email", (folder) => ({ folder, uids: Array.from({ length: 101 }, (_, i) => i + 1), destination: "Archive" }), /uids/],
  ];

  let seeded: { folder: string; uids: number[] };
  beforeAll(async () => { seeded = await seed(2); });

  for (const [name, tool, args, pattern] of cases) {
    test(`${tool}: ${name}`, async () => {
      const subject = `bad ${tag()}`;
      const before = await state(seeded.folder, subject);
      const res = await call(mcp, tool, args(seeded.folder, seeded.uids, subject));
      expect(res.isError).toBe(true);
      expect(textOf(res)).toMatch(pattern);
      expect(await state(seeded.folder, subject)).toEqual(before);
    });
  }

  test("an SMTP refusal is an error and leaves Sent untouched", async () => {
    const subject = `refused ${tag()}`;
    h.smtp.rejectRecipients.add("bob@example.test");
    const res = await call(mcp, "send_email", { to: "bob@example.test", subject, text: "x" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/refused every recipient \(bob@example\.test\).*550/);
    expect(await findBySubject(imap, "Sent", subject)).toEqual([]);
  });
});

describe("scope", () => {
  test("a token without email:write gets HTTP 403 insufficient_scope for every write tool, and nothing changes", async () => {
    const { folder, uids } = await seed(1);
    const subject = `scope ${tag()}`;
    const before = await state(folder, subject);
    const calls: Array<[string, Record<string, unknown>]> = [
      ["draft_email", { to: "bob@example.test", subject, text: "x" }],
      ["send_email", { to: "bob@example.test", subject, text: "x" }],
      ["mark_as_read", { folder, uids }],
      ["move_email", { folder, uids, destination: "Archive" }],
    ];
    for (const [tool, args] of calls) {
      const err = await call(readOnly, tool, args).then(() => null, (e: Error & { code?: number }) => e);
      expect(err?.code).toBe(403); // StreamableHTTPError carries the HTTP status
      expect(String(err?.message)).toContain("lacks the email:write scope");
    }
    expect(await state(folder, subject)).toEqual(before);
    expect((await call(readOnly, "list_mailboxes")).isError).toBeFalsy(); // reading still works
  });

  test("the 403 carries the RFC 6750 scope challenge", async () => {
    const res = await fetch(srv.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${readOnlyTokenValue}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": "any" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "send_email", arguments: {} } }),
    });
    expect(res.status).toBe(403);
    const challenge = res.headers.get("www-authenticate")!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="email:read email:write"');
    expect(challenge).toContain(`resource_metadata="${srv.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
  });

  test("the tool-level check stays as a second line of defence", async () => {
    const { runWrite } = await import("../../src/mcp/tools/pipeline/write.ts");
    const { sendEmail } = await import("../../src/mcp/tools/write/send-email.ts");
    // A context with nothing but the scopes: the handler and the activity log must not be reached.
    const res = (await runWrite(sendEmail(async () => null), {} as never, { scopes: ["email:read"] } as never)) as CallToolResult;
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/^insufficient_scope: .*"email:write"/);
  });
});
