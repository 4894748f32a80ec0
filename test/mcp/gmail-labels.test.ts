// The Gmail path of label_email, archive_email and trash_email, against the scripted server
// speaking Gmail's X-GM-EXT-1 (test/support/fake-gmail.ts): no Gmail account is reachable from here,
// and Dovecot has no X-GM-LABELS. Labels with spaces and non-ASCII go out quoted in modified UTF-7,
// come back decoded in the summaries; archiving moves into All Mail, trashing into [Gmail]/Trash;
// get_thread finds a conversation by X-GM-THRID in All Mail.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { USERS } from "../support/dovecot.ts";
import { gmailState, type GmailState } from "../support/fake-gmail.ts";
import { startFakeImap, type FakeImap } from "../support/fake-imap.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

let srv: TestServer;
let fake: FakeImap;
let gmail: GmailState;
let mcp: Client;

beforeAll(async () => {
  gmail = gmailState();
  fake = await startFakeImap(() => ({ gmail }));
  srv = await startTestServer();
  mcp = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(USERS.alice, fake)));
});
afterAll(async () => {
  await mcp.close();
  await srv.stop();
  await fake.stop();
});

describe("Gmail labels (X-GM-LABELS)", () => {
  test("add and remove go out as X-GM-LABELS, quoted and in modified UTF-7; summaries show the labels decoded", async () => {
    const res = await callOk(mcp, "label_email", { uids: [1, 2], add: ["Receipts 2026", "Entwürfe", "\\Important"] });
    expect(res).toEqual({ folder: "INBOX", updated: 2, kind: "gmail_labels" });
    expect(gmail.commands).toContain('STORE 1,2 +X-GM-LABELS ("Receipts 2026" "Entw&APw-rfe" \\Important)');
    await callOk(mcp, "label_email", { uids: [2], remove: ["Receipts 2026"] });
    expect(gmail.commands.at(-1)).toBe('STORE 2 -X-GM-LABELS ("Receipts 2026")');
    const page = await callOk(mcp, "get_recent_emails", { limit: 3 });
    const labels = Object.fromEntries(page.emails.map((e: { uid: number; labels: string[] }) => [e.uid, e.labels]));
    expect(labels).toEqual({ 1: ["Entwürfe", "Receipts 2026", "\\Important", "\\Inbox"], 2: ["Entwürfe", "\\Important", "\\Inbox"], 3: ["\\Inbox"] });
  });

  test("a Gmail system label that would move or delete is refused", async () => {
    const res = await call(mcp, "label_email", { uids: [3], add: ["\\Trash"] });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/use trash_email/);
  });

  test("archive_email moves into All Mail (Gmail has no \\Archive); trash_email into [Gmail]/Trash", async () => {
    expect(await callOk(mcp, "archive_email", { uids: [1] })).toEqual({ from: "INBOX", to: "[Gmail]/All Mail", moved: [{ uid: 1, new_uid: 501 }] });
    expect(gmail.commands.at(-1)).toBe('MOVE 1 "[Gmail]/All Mail"');
    expect(await callOk(mcp, "trash_email", { uids: [2] })).toEqual({ from: "INBOX", to: "[Gmail]/Trash", moved: [{ uid: 2, new_uid: 502 }] });
    expect(gmail.commands.at(-1)).toBe('MOVE 2 "[Gmail]/Trash"');
  });
});

describe("keywords where the folder accepts no new ones", () => {
  test("PERMANENTFLAGS without \\*: an error naming the keywords it accepts, and no STORE sent", async () => {
    const strict = await startFakeImap(() => ({ permanentFlags: "\\Seen \\Flagged $Work" }));
    const client = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(USERS.alice, strict)));
    try {
      const res = await call(client, "label_email", { uids: [1], add: ["project-x"] });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toMatch(/does not offer Gmail labels.*does not accept new keywords.*Keywords it accepts: \$Work\. Nothing was changed/);
      expect(strict.received.STORE).toBeUndefined();
    } finally {
      await client.close();
      await strict.stop();
    }
  });
});

describe("get_thread on Gmail (X-GM-THRID)", () => {
  test("the server's thread id finds the conversation in All Mail with one SEARCH; the copy in INBOX is the one shown", async () => {
    const before = gmail.commands.length;
    const thread = await callOk(mcp, "get_thread", { uid: 3 });
    expect(thread.folders_searched).toEqual(["INBOX", "[Gmail]/Sent Mail", "[Gmail]/All Mail"]);
    expect(thread.messages.map((m: { folder: string; uid: number }) => [m.folder, m.uid])).toEqual([["[Gmail]/All Mail", 1], ["[Gmail]/All Mail", 2], ["INBOX", 3]]);
    expect(thread.messages.map((m: { body_text: string }) => m.body_text)).toEqual(["Body of message 1.", "Body of message 2.", "Body of message 3."]);
    expect(gmail.commands.slice(before)).toEqual(["SEARCH X-GM-THRID 1700000000000000001"]); // no HEADER searches
  });
});
