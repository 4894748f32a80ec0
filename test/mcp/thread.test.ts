// get_thread through the SDK client on the harness Dovecot: a conversation seeded over INBOX, Sent
// and Archive (the person's own reply in Sent, a copy in two folders, a reply that names only its
// parent, an unrelated message with the same subject, a linked one in Trash) comes back whole, once
// each, oldest first, with quoted history trimmed and every sender-written value fenced.
import { beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { randomBytes } from "node:crypto";
import { aliceHooks } from "../support/alice.ts";
import type { Harness } from "../support/harness.ts";
import { findBySubject } from "../support/imap.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, textOf } from "../support/mcp-client.ts";

let h: Harness, mcp: Client, imap: ImapFlow;
aliceHooks((s) => ({ h, mcp, imap } = s));

const t = randomBytes(4).toString("hex");
const subject = `Plan ${t}`;
const id = (n: number) => `<plan-${t}-${n}@example.net>`;
const at = (hour: number) => new Date(Date.UTC(2026, 10, 20, hour));
const uids: Record<string, number> = {};

beforeAll(async () => {
  const put = async (name: string, folder: string, raw: string, flags?: string[]) => {
    await h.dovecot.deliver("alice", raw, folder, flags);
    uids[name] = (await findBySubject(imap, folder, subject)).at(-1)!.uid;
  };
  const m3 = plainText({ from: "Carol <carol@example.net>", subject: `Re: ${subject}`, messageId: id(3), inReplyTo: id(2), references: [id(1), id(2)], date: at(12) }, "Then Thursday at ten.\n");
  await put("m1", "INBOX", plainText({ from: "Carol <carol@example.net>", subject, messageId: id(1), date: at(9) }, "Shall we plan the launch on Wednesday?\n"));
  await put("m2", "Sent", plainText({ from: "alice@example.test", to: "carol@example.net", subject: `Re: ${subject}`, messageId: id(2), inReplyTo: id(1), references: [id(1)], date: at(10) },
    "Wednesday is full; Thursday?\n\nOn Fri, 20 Nov 2026 at 09:00 UTC, Carol <carol@example.net> wrote:\n> Shall we plan the launch on Wednesday?\n"), ["\\Seen"]);
  await put("m3", "Archive", m3);
  await put("m3copy", "INBOX", m3);
  // A client that writes only In-Reply-To: found through the ids of the messages found first.
  await put("m4", "INBOX", plainText({ from: "Dave <dave@example.org>", subject: `Re: ${subject}`, messageId: id(4), inReplyTo: id(3), date: at(13) }, "Thursday at ten works for me.\n"));
  await put("other", "INBOX", plainText({ subject: `Re: ${subject}`, messageId: `<other-${t}@example.net>`, date: at(11) }, "Same subject, another conversation.\n"));
  await put("trashed", "Trash", plainText({ subject: `Re: ${subject}`, messageId: `<trash-${t}@example.net>`, references: [id(1)], date: at(11) }, "Deleted.\n"));
}, 30_000);

describe("get_thread", () => {
  test("the whole conversation, oldest first, once each, the own reply from Sent, nothing unrelated", async () => {
    const res = await call(mcp, "get_thread", { folder: "\\Inbox", uid: uids.m4 });
    expect(res.isError).toBeFalsy();
    const thread = res.structuredContent as { subject: string; omitted: number; folders_searched: string[]; messages: Array<Record<string, unknown>> };
    expect(thread.subject).toBe(subject);
    expect(thread.omitted).toBe(0);
    expect(thread.folders_searched).toEqual(["INBOX", "Sent", "Archive"]);
    expect(thread.messages.map((m) => [m.folder, m.uid, m.message_id])).toEqual([
      ["INBOX", uids.m1, id(1)], ["Sent", uids.m2, id(2)], ["INBOX", uids.m3copy, id(3)], ["INBOX", uids.m4, id(4)],
    ]);
    const own = thread.messages[1]!;
    expect(own).toMatchObject({ in_reply_to: id(1), references: [id(1)], body_text: "Wednesday is full; Thursday?", quoted_trimmed: true, truncated: false, seen: true });
    expect(thread.messages[0]).toMatchObject({ body_text: "Shall we plan the launch on Wednesday?", quoted_trimmed: false, attachments: [] });
    expect(textOf(res)).toContain("Quoted history left out of message 2 (include_quoted: true keeps it).");
  });

  test("include_quoted keeps the history; the archived copy is used when the thread is asked from Archive", async () => {
    const thread = await callOk(mcp, "get_thread", { folder: "\\Archive", uid: uids.m3, include_quoted: true });
    expect(thread.folders_searched).toEqual(["Archive", "INBOX", "Sent"]);
    expect(thread.messages.map((m: { folder: string }) => m.folder)).toEqual(["INBOX", "Sent", "Archive", "INBOX"]);
    expect(thread.messages[1].body_text).toContain("> Shall we plan the launch on Wednesday?");
    expect(thread.messages[1].quoted_trimmed).toBe(false);
  });

  test("max_messages keeps the newest and the message asked about; omitted counts the rest; bodies cut at max_chars_per_message", async () => {
    const thread = await callOk(mcp, "get_thread", { uid: uids.m1, max_messages: 2, max_chars_per_message: 10 });
    expect(thread.messages.map((m: { message_id: string }) => m.message_id)).toEqual([id(1), id(4)]);
    expect(thread.omitted).toBe(2);
    expect(thread.messages[0]).toMatchObject({ body_text: "Shall we p", truncated: true });
  });

  test("everything a sender wrote is inside the fence; outside only counts, folders and notes", async () => {
    const text = textOf(await call(mcp, "get_thread", { uid: uids.m4 }));
    const marker = /<<<UNTRUSTED-CONTENT-([0-9a-f]{16})\n/.exec(text)![1];
    const [before, inside, after] = [text.split(`<<<UNTRUSTED-CONTENT-${marker}`)[0]!, text.split(`<<<UNTRUSTED-CONTENT-${marker}`)[1]!.split(`UNTRUSTED-CONTENT-${marker}>>>`)[0]!, text.split(`UNTRUSTED-CONTENT-${marker}>>>`)[1]!];
    for (const sender of [subject, "carol@example.net", "dave@example.org", "Thursday at ten", id(1)]) {
      expect(inside).toContain(sender);
      expect(before + after).not.toContain(sender);
    }
    expect(inside).toContain(`--- Message 2 of 4: folder Sent, uid ${uids.m2} ---`);
  });

  test("a uid that is not there: the usual error, nothing else read", async () => {
    const res = await call(mcp, "get_thread", { uid: 999_999 });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/No message with uid 999999 in "INBOX"/);
  });
});
