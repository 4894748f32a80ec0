// get_email on messages larger than WHOLE_MESSAGE_LIMIT: only the text part is downloaded, the
// attachment is listed, HTML is still converted, and nothing fails or sets \Seen.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { WHOLE_MESSAGE_LIMIT } from "../../src/mail/read/message.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { findBySubject, loginImap } from "../support/imap.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

const FOLDER = "ReadLarge";
const ATTACHMENT_BYTES = WHOLE_MESSAGE_LIMIT + 2 * 1024 * 1024; // 6 MB decoded
let h: Harness;
let srv: TestServer;
let client: Client;
const uids: Record<string, number> = {};

function base64Lines(bytes: Buffer): string {
  return bytes.toString("base64").replace(/.{76}/g, "$&\r\n");
}

const withAttachment = [
  "From: Big Sender <big@example.org>", "To: alice@example.test", "Subject: Large attachment",
  "Message-ID: <large-1@example.org>", "In-Reply-To: <parent@example.org>", "Date: Mon, 02 Mar 2026 10:00:00 +0000",
  "MIME-Version: 1.0", 'Content-Type: multipart/mixed; boundary="b1"', "",
  "--b1", "Content-Type: text/plain; charset=utf-8", "", "The photos are attached.", "",
  "--b1", 'Content-Type: application/octet-stream; name="photos.bin"', "Content-Transfer-Encoding: base64",
  'Content-Disposition: attachment; filename="photos.bin"', "",
  base64Lines(Buffer.alloc(ATTACHMENT_BYTES, 7)), "--b1--", "",
].join("\r\n");

// A forward of a large message whose whole body is the forwarded message (message/rfc822 at the
// top): its parts are 1.1 and 1.2 (RFC 9051 §6.4.5), which imapflow numbers 1 and 2.
const forwardOfLarge = [
  "From: ann@example.org", "To: alice@example.test", "Subject: Large forward", "Message-ID: <large-3@example.org>",
  "Date: Mon, 02 Mar 2026 12:00:00 +0000", "MIME-Version: 1.0", "Content-Type: message/rfc822", "",
  "From: bob@example.net", "Subject: the big one", "MIME-Version: 1.0", 'Content-Type: multipart/mixed; boundary="f2"', "",
  "--f2", "Content-Type: text/plain", "", "Inner text.", "--f2", 'Content-Type: application/octet-stream; name="big.bin"',
  "Content-Transfer-Encoding: base64", "", base64Lines(Buffer.alloc(ATTACHMENT_BYTES, 9)), "--f2--", "",
].join("\r\n");

const hugeHtml = [
  "From: news@example.org", "To: alice@example.test", "Subject: Huge newsletter", "Message-ID: <large-2@example.org>",
  "Date: Mon, 02 Mar 2026 11:00:00 +0000", "MIME-Version: 1.0", "Content-Type: text/html; charset=utf-8", "",
  "<html><body><h1>Start of the newsletter</h1>" + "<p>filler paragraph text</p>\r\n".repeat(220_000) + "</body></html>", "",
].join("\r\n");

async function uidOf(imap: ImapFlow, subject: string): Promise<number> {
  return (await findBySubject(imap, FOLDER, subject))[0]!.uid;
}

beforeAll(async () => {
  h = await getHarness();
  const alice = h.dovecot.users.alice;
  const imap = await loginImap(h.dovecot, alice);
  await imap.mailboxCreate(FOLDER).catch(() => {});
  await imap.append(FOLDER, withAttachment, []);
  await imap.append(FOLDER, hugeHtml, []);
  await imap.append(FOLDER, forwardOfLarge, []);
  uids.attachment = await uidOf(imap, "Large attachment");
  uids.html = await uidOf(imap, "Huge newsletter");
  uids.forward = await uidOf(imap, "Large forward");
  await imap.logout();
  srv = await startTestServer();
  client = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(alice, h.dovecot)));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await srv?.stop();
});

describe("get_email on large messages", () => {
  test("the messages really are over the whole-message limit", () => {
    expect(withAttachment.length).toBeGreaterThan(WHOLE_MESSAGE_LIMIT);
    expect(hugeHtml.length).toBeGreaterThan(WHOLE_MESSAGE_LIMIT);
  });

  test("a 6 MB attachment: text body, headers and the attachment listed with its decoded size", async () => {
    const e = await callOk(client, "get_email", { folder: FOLDER, uid: uids.attachment });
    expect(e.body_text).toBe("The photos are attached.");
    expect(e.truncated).toBe(false);
    expect(e.in_reply_to).toBe("<parent@example.org>");
    expect(e.from).toEqual({ name: "Big Sender", address: "big@example.org" });
    expect(e.attachments).toHaveLength(1);
    expect(e.attachments[0]).toMatchObject({ part: "2", filename: "photos.bin", content_type: "application/octet-stream" });
    expect(Math.abs(e.attachments[0].size - ATTACHMENT_BYTES)).toBeLessThan(ATTACHMENT_BYTES * 0.01);
    expect(e.seen).toBe(false);
  });

  test("a 6 MB HTML-only message: converted to text from a capped download, marked truncated", async () => {
    const e = await callOk(client, "get_email", { folder: FOLDER, uid: uids.html, max_chars: 200_000 });
    expect(e.body_text.startsWith("Start of the newsletter")).toBe(true); // the heading keeps its letter case
    expect(e.body_text).toContain("filler paragraph text");
    expect(e.body_text).not.toContain("<p>");
    expect(e.truncated).toBe(true);
  });

  test("a large forwarded message: its text part (by its real part number) is the body; it is listed", async () => {
    const e = await callOk(client, "get_email", { folder: FOLDER, uid: uids.forward });
    expect(e.body_text).toBe("Inner text.");
    expect(e.attachments).toEqual([{ part: "1", filename: "the big one.eml", content_type: "message/rfc822", size: expect.any(Number) }]);
  });

  test("reading them set no \\Seen flag", async () => {
    const r = await callOk(client, "get_recent_emails", { folder: FOLDER, limit: 5 });
    expect(r.emails.map((m: { seen: boolean }) => m.seen)).toEqual([false, false, false]);
  });
});
