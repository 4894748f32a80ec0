// A mailbox whose special-use folders are called something else, as at Outlook ("Sent Items") or
// Gmail: a Dovecot of its own whose \Sent is "Sent Items", \Drafts "Draft Messages", \Archive
// "Old Mail", plus an ordinary folder merely named "Sent". Every composing path and get_thread find
// the folders by their RFC 6154 attribute, never by name, and say their real paths.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { startDovecot, type DovecotServer } from "../support/dovecot.ts";
import { findBySubject, loginImap } from "../support/imap.ts";
import { attached, mixed, note } from "../support/attachment-mail.ts";
import { buildMessage, plainText } from "../support/mail-fixtures.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { startSmtp, type SmtpServer } from "../support/smtp.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

let dovecot: DovecotServer;
let smtp: SmtpServer;
let srv: TestServer;
let mcp: Client;
let imap: ImapFlow;

beforeAll(async () => {
  dovecot = await startDovecot({ folderNames: { Sent: "Sent Items", Drafts: "Draft Messages", Archive: "Old Mail" } });
  smtp = await startSmtp(dovecot);
  srv = await startTestServer();
  mcp = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(dovecot.users.alice, dovecot, smtp.port)));
  imap = await loginImap(dovecot, dovecot.users.alice);
  await imap.mailboxCreate("Sent"); // a folder merely called so: never where sent mail goes
}, 30_000);
afterAll(async () => {
  await mcp?.close();
  await imap?.logout();
  await srv?.stop();
  await smtp?.stop();
  await dovecot?.stop();
}, 15_000);

describe("special-use folders by attribute, whatever they are called", () => {
  test("send_email files in Sent Items; draft_email saves in Draft Messages; update_draft and send_draft find them", async () => {
    const sent = await callOk(mcp, "send_email", { to: "bob@example.test", subject: "renamed send", text: "x" });
    expect(sent.saved_to).toBe("Sent Items");
    expect((await findBySubject(imap, "Sent Items", "renamed send")).length).toBe(1);
    expect(await findBySubject(imap, "Sent", "renamed send")).toEqual([]);

    const draft = await callOk(mcp, "draft_email", { to: "bob@example.test", subject: "renamed draft", text: "v1" });
    expect(draft.folder).toBe("Draft Messages");
    const updated = await callOk(mcp, "update_draft", { uid: draft.uid, text: "v2" });
    expect(updated.folder).toBe("Draft Messages");
    const out = await callOk(mcp, "send_draft", { uid: updated.uid });
    expect(out).toMatchObject({ status: "sent", saved_to: "Sent Items" });
    expect(await findBySubject(imap, "Draft Messages", "renamed draft")).toEqual([]);
    expect((await simpleParser((await findBySubject(imap, "Sent Items", "renamed draft"))[0]!.raw)).text?.trim()).toBe("v2");
  });

  test("reply_folder, forward_folder and attach take \\Sent; get_thread finds the own reply in Sent Items and searches Old Mail", async () => {
    await dovecot.deliver("alice", plainText({ subject: "renamed thread", messageId: "<rt-1@example.net>", from: "Carol <carol@example.net>" }));
    const [first] = await findBySubject(imap, "INBOX", "renamed thread");
    await callOk(mcp, "send_email", { reply_to_uid: first!.uid, text: "My answer." });
    const [mine] = await findBySubject(imap, "Sent Items", "Re: renamed thread");

    const thread = await callOk(mcp, "get_thread", { uid: first!.uid });
    expect(thread.folders_searched).toEqual(["INBOX", "Sent Items", "Old Mail"]);
    expect(thread.messages.map((m: { folder: string; uid: number }) => [m.folder, m.uid])).toEqual([["INBOX", first!.uid], ["Sent Items", mine!.uid]]);

    const followUp = await callOk(mcp, "draft_email", { reply_to_uid: mine!.uid, reply_folder: "\\Sent", text: "Any news?" });
    expect((await simpleParser((await findBySubject(imap, "Draft Messages", "Re: renamed thread"))[0]!.raw)).to).toMatchObject({ value: [{ address: "carol@example.net" }] });
    expect(followUp.folder).toBe("Draft Messages");

    await imap.append("Sent Items", buildMessage({ subject: "renamed file" }, mixed([note("see"), attached("text/csv", "rows.csv", "a,b\r\n1,2\r\n")])), ["\\Seen"]);
    const [withFile] = await findBySubject(imap, "Sent Items", "renamed file");
    const fwd = await callOk(mcp, "draft_email", {
      to: "bob@example.test", forward_uid: withFile!.uid, forward_folder: "\\Sent", attach: [{ folder: "\\Sent", uid: withFile!.uid, part: "2" }],
    });
    const parsed = await simpleParser((await findBySubject(imap, "Draft Messages", "Fwd: renamed file")).find((m) => m.uid === fwd.uid)!.raw);
    expect(parsed.attachments.map((a) => a.filename)).toEqual(["rows.csv", "rows.csv"]);
  });
});
