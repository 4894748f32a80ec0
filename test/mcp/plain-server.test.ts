// The tools on an IMAP server without the extensions Dovecot offers (issue 41, finding 6): a Dovecot
// of its own whose CAPABILITY is Courier 5's set (no MOVE, SPECIAL-USE, CONDSTORE/QRESYNC, ESEARCH,
// LIST-STATUS) and whose folders carry no RFC 6154 attribute, under names nobody takes for Sent,
// Drafts or Trash. Only Courier exercised these fallbacks before. (No UIDNEXT on SELECT, which no
// Dovecot setting hides, is test/mcp/courier-changes.test.ts, on the scripted server.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { startDovecot, type DovecotServer } from "../support/dovecot.ts";
import { findBySubject, loginImap } from "../support/imap.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

// Courier 5.0's CAPABILITY after login, as Debian packages it.
const COURIER_CAPS = "IMAP4rev1 UIDPLUS CHILDREN NAMESPACE THREAD=ORDEREDSUBJECT THREAD=REFERENCES SORT QUOTA IDLE";
const HIDDEN = ["MOVE", "SPECIAL-USE", "CONDSTORE", "QRESYNC", "ESEARCH", "LIST-STATUS"];

let dovecot: DovecotServer;
let srv: TestServer;
let mcp: Client;
let imap: ImapFlow;

beforeAll(async () => {
  dovecot = await startDovecot({
    imapCapability: COURIER_CAPS, specialUse: false,
    folderNames: { Sent: "Box-S", Drafts: "Box-D", Trash: "Box-T", Archive: "Box-A", Junk: "Box-J" },
  });
  srv = await startTestServer();
  mcp = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(dovecot.users.alice, dovecot)));
  imap = await loginImap(dovecot, dovecot.users.alice);
  await imap.mailboxCreate("Work");
  for (let i = 0; i < 3; i++) await dovecot.deliver("alice", plainText({ subject: `plain #${i}` }));
  for (let i = 0; i < 2; i++) await dovecot.deliver("alice", plainText({ subject: `plain work #${i}` }), "Work");
}, 30_000);
afterAll(async () => {
  await mcp?.close();
  await imap?.logout();
  await srv?.stop();
  await dovecot?.stop();
}, 15_000);

describe("a server with Courier's capabilities", () => {
  test("the extensions really are hidden from a client", () => {
    expect(HIDDEN.filter((c) => imap.capabilities.has(c))).toEqual([]);
  });

  test("list_mailboxes counts each folder (STATUS, no LIST-STATUS)", async () => {
    const res = await callOk(mcp, "list_mailboxes", {});
    const work = res.mailboxes.find((m: { path: string }) => m.path === "Work");
    expect(work).toMatchObject({ messages: 2, unseen: 2 });
  });

  test('search_emails folder "*" pages across folders with SEARCH (no ESEARCH)', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await callOk(mcp, "search_emails", { folder: "*", subject: "plain", limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.emails.map((e: { folder: string; subject: string }) => `${e.folder}:${e.subject}`));
      cursor = page.next_cursor ?? undefined;
    } while (cursor && seen.length < 20);
    expect(seen.sort()).toEqual(["INBOX:plain #0", "INBOX:plain #1", "INBOX:plain #2", "Work:plain work #0", "Work:plain work #1"]);
  });

  test("move_email moves with COPY and EXPUNGE (no MOVE)", async () => {
    const [msg] = await findBySubject(imap, "INBOX", "plain #0");
    const res = await callOk(mcp, "move_email", { folder: "INBOX", uids: [msg!.uid], destination: "Work" });
    expect(res.moved).toHaveLength(1);
    expect(await findBySubject(imap, "INBOX", "plain #0")).toEqual([]);
    expect(await findBySubject(imap, "Work", "plain #0")).toHaveLength(1);
  });

  test("get_changes without CONDSTORE: the arrival and the expunge, exactly", async () => {
    const first = await callOk(mcp, "get_changes", { folder: "INBOX" });
    await dovecot.deliver("alice", plainText({ subject: "plain late" }));
    const [gone] = await findBySubject(imap, "INBOX", "plain #1");
    const lock = await imap.getMailboxLock("INBOX");
    try { await imap.messageDelete(String(gone!.uid), { uid: true }); } finally { lock.release(); }
    const res = await callOk(mcp, "get_changes", { folder: "INBOX", since: first.cursor });
    expect([res.added.map((e: { subject: string }) => e.subject), res.vanished, res.full_resync]).toEqual([["plain late"], [gone!.uid], false]);
    expect(textOf(await call(mcp, "get_changes", { folder: "INBOX", since: res.cursor }))).toMatch(/no CONDSTORE/);
  });

  test("no folder marked or named Drafts: draft_email says what to do; a folder named Drafts is then found by its name", async () => {
    const res = await call(mcp, "draft_email", { to: "bob@example.test", subject: "nowhere", text: "x" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/does not mark folders by role \(no SPECIAL-USE\).*create a folder named "Drafts" in your mail client/);
    await imap.mailboxCreate("Drafts");
    const saved = await callOk(mcp, "draft_email", { to: "bob@example.test", subject: "by name", text: "x" });
    expect(saved.folder).toBe("Drafts");
  });
});
