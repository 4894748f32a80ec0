// get_email and get_recent_emails on the odd-message corpus (test/support/odd-mail.ts), delivered to
// the harness Dovecot: what a careful mail client would show. Folder "OddMime".
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getHarness } from "../support/harness.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { ODD_MAIL, type OddName } from "../support/odd-mail.ts";
import { issueTestToken, testAccount } from "../support/token.ts";
import { withImap } from "./seed.ts";

const FOLDER = "OddMime";
let srv: TestServer;
let client: Client;
const uids = {} as Record<OddName, number>;

beforeAll(async () => {
  const h = await getHarness();
  const alice = h.dovecot.users.alice;
  await withImap(h.dovecot, alice, async (c) => {
    await c.mailboxCreate(FOLDER);
    for (const [name, raw] of Object.entries(ODD_MAIL)) uids[name as OddName] = ((await c.append(FOLDER, raw, [])) as { uid: number }).uid;
  });
  srv = await startTestServer();
  client = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(alice, h.dovecot)));
}, 30_000);
afterAll(async () => {
  await client?.close();
  await srv?.stop();
});

const read = (name: OddName) => callOk(client, "get_email", { folder: FOLDER, uid: uids[name] });
const summaryOf = async (name: OddName) => {
  const page = await callOk(client, "get_recent_emails", { folder: FOLDER, limit: 100 });
  return page.emails.find((e: { uid: number }) => e.uid === uids[name]);
};

describe("MIME as a careful mail client reads it", () => {
  test("a top-level message/rfc822 forward: the inner text in the body, listed once as an attachment", async () => {
    const e = await read("forwardTop");
    expect(e.body_text).toContain("From: Bob Example <bob@example.net>");
    expect(e.body_text).toContain("Subject: minutes");
    expect(e.body_text).toContain("The inner minutes text.");
    expect(e.attachments).toEqual([{ part: "1", filename: "minutes.eml", content_type: "message/rfc822", size: expect.any(Number) }]);
    expect(e.attachments[0].size).toBeGreaterThan(100);
    expect((await summaryOf("forwardTop")).has_attachments).toBe(true);
  });

  test("an attached forward: the note, then the attached message's text", async () => {
    const e = await read("forwardAttached");
    expect(e.body_text).toMatch(/^See below\.\n\n-+ Attached message \(part 2\) -+\nFrom: Bob Example <bob@example\.net>\nSubject: inner\n\nInner attached text\.$/);
    expect(e.attachments).toEqual([{ part: "2", filename: "inner.eml", content_type: "message/rfc822", size: expect.any(Number) }]);
  });

  test("Content-Type: text without subtype and text/x-one read as text/plain", async () => {
    expect((await read("bareText")).body_text).toBe("Body of a bare text type.");
    expect((await read("unknownText")).body_text).toBe("Body of text/x-one.");
  });

  test("HTML only with an attachment: the body is the HTML as text, headings keep their case", async () => {
    const e = await read("htmlWithAttachment");
    expect(e.body_text).toBe("Your Invoice\n\nThanks for shopping.\n\nItem Price\nTea 3");
    expect(e.body_note).toBeNull();
    expect(e.attachments).toEqual([{ part: "2", filename: "invoice.pdf", content_type: "application/pdf", size: 9 }]);
  });

  test("HTML the converter cannot parse (24,000 nested tags): headers and a tag-stripped body, a note, no error", async () => {
    const res = await call(client, "get_email", { folder: FOLDER, uid: uids.nestedHtml });
    expect(res.isError).toBeFalsy();
    const e = res.structuredContent as { subject: string; body_text: string; body_note: string };
    expect(e.subject).toBe("deep");
    expect(e.body_text).toBe("deep text");
    // Overflowing the stack takes the converter ~1-2 s: on a loaded machine its 2 s budget may end first.
    expect(e.body_note).toMatch(/(could not be converted to text|too complex to convert to text in time); it is shown with its tags stripped/);
    expect(textOf(res)).toContain(`(${e.body_note})`);
  });

  test("ENVELOPE placeholders never come back as addresses", async () => {
    const s = await summaryOf("missingParts");
    expect(s.from).toEqual({ name: "foo", address: null });
    expect(s.to).toEqual([{ name: "undisclosed", address: null }, { name: "bar", address: null }]);
    expect(s.cc).toEqual([{ name: "Real", address: "real@example.org" }]); // MISSING_MAILBOX@nohost.example is dropped
    const e = await read("missingParts");
    expect(e.reply_to).toEqual([{ name: "Help", address: "help@example.org" }, { name: "nobody", address: null }]);
    expect(JSON.stringify(e)).not.toMatch(/MISSING|\.MISSING-HOST-NAME\./);
    const text = textOf(await call(client, "get_email", { folder: FOLDER, uid: uids.missingParts }));
    expect(text).toContain("From: foo (no address)");
  });

  test("groups: an empty group leaves nothing, a group's members are recipients", async () => {
    const s = await summaryOf("groups");
    expect(s.to).toEqual([]);
    expect(s.cc).toEqual([{ name: null, address: "a@example.org" }, { name: "B", address: "b@example.org" }, { name: null, address: "c@example.org" }]);
  });

  test("a digest: each entry's text once under a short header, no raw MIME headers, each listed once", async () => {
    const e = await read("digest");
    expect(e.body_text).toContain("Today's topics:");
    for (const s of ["Subject: First", "First message body.", "Subject: Second", "Second message body."]) expect(e.body_text.split(s).length).toBe(2);
    expect(e.body_text).not.toContain("Content-Type");
    expect(e.attachments.map((a: { part: string; filename: string }) => [a.part, a.filename])).toEqual([["2.1", "First.eml"], ["2.2", "Second.eml"]]);
  });

  test("charsets, quoted-printable and format=flowed", async () => {
    expect((await read("latin1Flowed")).body_text).toBe("Grüße aus Köln\n\nThis line was long and flowed by the sender.");
  });

  test("a blank text alternative gives way to the HTML one", async () => {
    expect((await read("blankAlternative")).body_text).toBe("Only the HTML says something.");
  });
});
