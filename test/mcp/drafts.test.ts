// Finishing drafts through the SDK client on the harness Dovecot + SMTP: update_draft replaces a
// draft (fields left out kept, the old one removed only once the new one is stored), send_draft sends
// it exactly as saved (Bcc honoured and hidden), files it in Sent and removes it from Drafts.
import { describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { randomBytes } from "node:crypto";
import { aliceHooks } from "../support/alice.ts";
import { findBySubject } from "../support/imap.ts";
import type { Harness } from "../support/harness.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, textOf, type TestServer } from "../support/mcp-client.ts";

let h: Harness, srv: TestServer, mcp: Client, imap: ImapFlow, bob: ImapFlow, grantId: string;
aliceHooks((s) => ({ h, srv, mcp, imap, bob, grantId } = s));
const tag = () => randomBytes(4).toString("hex");

const uidsIn = async (folder: string, subject: string) => (await findBySubject(imap, folder, subject)).map((m) => m.uid);
const headerOf = (raw: Buffer) => raw.toString("latin1").split("\r\n\r\n")[0]!;
const bodyOf = (raw: Buffer) => raw.subarray(raw.indexOf("\r\n\r\n") + 4);
const activity = async (tool: string) => (await srv.deps.activity.list({ grant: grantId })).filter((r) => r.tool === tool).at(-1)!.details!;

describe("update_draft then send_draft", () => {
  test("a draft changed, then sent: delivered, Bcc hidden, filed in Sent, gone from Drafts", async () => {
    const first = `draft v1 ${tag()}`;
    const second = first.replace("v1", "v2");
    const file = randomBytes(20_000);
    const draft = await callOk(mcp, "draft_email", {
      to: "Bob <bob@example.test>", cc: "carol@example.net", bcc: "dave@example.org", subject: first, text: "First version.",
      attachments: [{ filename: "data.bin", content_base64: file.toString("base64") }],
    });
    const updated = await callOk(mcp, "update_draft", { uid: draft.uid, subject: second, markdown: "Second *version*." });
    expect(updated.folder).toBe("Drafts");
    expect(updated.uid).not.toBe(draft.uid);
    expect(await uidsIn("Drafts", first)).toEqual([]); // the old draft is gone, the new one is there
    expect(await uidsIn("Drafts", second)).toEqual([updated.uid]);
    const saved = await simpleParser((await findBySubject(imap, "Drafts", second))[0]!.raw);
    expect(saved.text?.trim()).toBe("Second version.");
    expect(saved.html).toContain("<em>version</em>");
    expect(JSON.stringify([saved.to, saved.cc, saved.bcc])).toMatch(/bob@example\.test.*carol@example\.net.*dave@example\.org/);
    expect(Buffer.compare(saved.attachments[0]!.content, file)).toBe(0);
    expect(await activity("update_draft")).toMatchObject({ folder: "Drafts", uids: [draft.uid], new_uid: updated.uid, message_id: updated.message_id });

    const sent = await call(mcp, "send_draft", { uid: updated.uid });
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent).toEqual({
      status: "sent", decision: "sent_directly", message_id: updated.message_id, accepted: ["bob@example.test", "carol@example.net", "dave@example.org"], rejected: [],
      saved_to: "Sent", draft: null, reason: null, preview: null, from: "alice@example.test",
    });
    const wire = h.smtp.messages.find((m) => m.raw.includes(second))!;
    expect(wire.to).toEqual(["bob@example.test", "carol@example.net", "dave@example.org"]);
    expect(headerOf(wire.raw)).not.toMatch(/^bcc:/im);
    const atBob = (await findBySubject(bob, "INBOX", second))[0]!.raw;
    expect(headerOf(atBob)).not.toContain("dave@example.org"); // Bcc never shown to the others
    const got = await simpleParser(atBob);
    expect(got.messageId).toBe(updated.message_id);
    expect(Buffer.compare(got.attachments[0]!.content, file)).toBe(0);
    expect(Date.now() - got.date!.getTime()).toBeLessThan(60_000); // dated when sent
    const [copy] = await findBySubject(imap, "Sent", second);
    expect(copy!.seen && !copy!.flags.has("\\Draft")).toBe(true);
    expect(headerOf(copy!.raw)).toMatch(/^Bcc: dave@example\.org$/m); // the sender still sees whom they Bcc'd
    expect(await uidsIn("Drafts", second)).toEqual([]);
    expect(await activity("send_draft")).toMatchObject({ folder: "\\Drafts", uids: [updated.uid], message_id: updated.message_id });
    expect(textOf(sent)).toContain("The draft was removed from Drafts.");
  });

  test("fields left out keep the draft's values; given ones replace them (cc: [] clears)", async () => {
    const subject = `keep ${tag()}`;
    const draft = await callOk(mcp, "draft_email", { to: "bob@example.test", cc: "carol@example.net", subject, html: "<p>Kept <b>body</b></p>", text: "Kept body" });
    const updated = await callOk(mcp, "update_draft", { uid: draft.uid, folder: "\\Drafts", cc: [] });
    const saved = await simpleParser((await findBySubject(imap, "Drafts", subject))[0]!.raw);
    expect(saved.subject).toBe(subject);
    expect(saved.cc).toBeUndefined();
    expect(saved.text?.trim()).toBe("Kept body");
    expect(saved.html).toBe("<p>Kept <b>body</b></p>");
    expect(await uidsIn("Drafts", subject)).toEqual([updated.uid]);
  });

  test("a draft written by another mail client is sent byte for byte, its Bcc taken out of what travels", async () => {
    const subject = `foreign ${tag()}`;
    const raw = plainText({ from: "alice@example.test", to: "bob@example.test", subject, headers: { Bcc: "Hidden <alice@example.test>", "X-Mozilla-Draft-Info": "internal/draft; vcard=0" } },
      "Written elsewhere.\n\u00a0odd  spacing   kept \n");
    await imap.append("Drafts", raw, ["\\Draft", "\\Seen"]);
    const [mine] = await findBySubject(imap, "Drafts", subject);
    await callOk(mcp, "send_draft", { uid: mine!.uid });
    const atBob = (await findBySubject(bob, "INBOX", subject))[0]!.raw;
    expect(Buffer.compare(bodyOf(atBob), bodyOf(Buffer.from(raw)))).toBe(0);
    expect(headerOf(atBob)).not.toContain("Hidden");
    expect(headerOf(atBob)).toContain("Message-ID: <fixture-");
    expect(h.smtp.messages.find((m) => m.raw.includes(subject))!.to).toEqual(["bob@example.test", "alice@example.test"]);
  });
});

describe("only drafts, and a failure leaves the draft as it was", () => {
  test("update_draft and send_draft refuse a received message", async () => {
    const subject = `not a draft ${tag()}`;
    await h.dovecot.deliver("alice", plainText({ subject }));
    const [msg] = await findBySubject(imap, "INBOX", subject);
    for (const tool of ["update_draft", "send_draft"]) {
      const res = await call(mcp, tool, { uid: msg!.uid, folder: "INBOX", subject: "changed" });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toMatch(/is not a draft: it has no \\Draft flag and "INBOX" is not the Drafts folder/);
    }
    expect(await uidsIn("INBOX", subject)).toEqual([msg!.uid]);
    expect(h.smtp.messages.some((m) => m.raw.includes(subject))).toBe(false);
  });

  test("an update that fails (a part that does not exist) keeps the old draft", async () => {
    const subject = `failing update ${tag()}`;
    const draft = await callOk(mcp, "draft_email", { to: "bob@example.test", subject, text: "v1" });
    const res = await call(mcp, "update_draft", { uid: draft.uid, text: "v2", attach: [{ folder: "Drafts", uid: draft.uid, part: "9" }] });
    expect(res.isError).toBe(true);
    expect(await uidsIn("Drafts", subject)).toEqual([draft.uid]);
  });

  test("a draft without any recipient is not sent", async () => {
    const subject = `no one ${tag()}`;
    await imap.append("Drafts", plainText({ subject, to: [] }).replace(/^To: .*\r\n/m, ""), ["\\Draft"]);
    const [d] = await findBySubject(imap, "Drafts", subject);
    const res = await call(mcp, "send_draft", { uid: d!.uid });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/no recipient in To, Cc or Bcc/);
    expect(await uidsIn("Drafts", subject)).toEqual([d!.uid]);
  });
});
