// send_draft's bytes (src/mail/write/draft/wire-bytes.ts): the draft as saved, Bcc out of what travels and
// kept in the Sent copy, Date the time of sending, a Message-ID only when the draft has none.
import { describe, expect, test } from "bun:test";
import { MailError } from "../../src/mail/errors.ts";
import { draftToSend } from "../../src/mail/write/draft/wire-bytes.ts";

const now = new Date("2026-11-25T12:00:00Z");
const draft = (head: string[], body = "Body\r\n  kept  as is\r\n") => Buffer.from(`${head.join("\r\n")}\r\n\r\n${body}`, "latin1");

describe("a saved draft made ready to send", () => {
  test("Bcc (folded, several fields) leaves the wire copy only; the envelope has everyone once", () => {
    const raw = draft([
      "From: me@example.test", "To: Bob <bob@example.test>,", " carol@example.net", "Cc: BOB@example.test", "Bcc: =?UTF-8?B?SMOkbnM=?= <hans@example.org>,",
      "\tdave@example.org", "Bcc: eve@example.org", "Subject: Hi", "Date: Mon, 1 Jan 2024 00:00:00 +0000", "Message-ID: <draft-1@example.test>",
    ]);
    const m = draftToSend(raw, "me@example.test", now);
    expect(m.messageId).toBe("<draft-1@example.test>");
    expect(m.envelope).toEqual({ from: "me@example.test", to: ["bob@example.test", "carol@example.net", "hans@example.org", "dave@example.org", "eve@example.org"] });
    const wire = m.wire.toString("latin1");
    expect(wire).not.toMatch(/bcc|hans|dave|eve/i);
    expect(wire.startsWith("Date: Wed, 25 Nov 2026 12:00:00 +0000\r\nMessage-ID: <draft-1@example.test>\r\nFrom: me@example.test\r\nTo: Bob <bob@example.test>,\r\n carol@example.net\r\n")).toBe(true);
    expect(m.stored.toString("latin1")).toContain("Bcc: =?UTF-8?B?SMOkbnM=?= <hans@example.org>,\r\n\tdave@example.org\r\nBcc: eve@example.org\r\n");
    expect(m.wire.subarray(m.wire.indexOf("\r\n\r\n") + 4).toString("latin1")).toBe("Body\r\n  kept  as is\r\n");
    expect(m.stored.toString("latin1")).not.toContain("2024");
  });

  test("no usable Message-ID: one is made; without Bcc, wire and stored are the same bytes", () => {
    const m = draftToSend(draft(["To: bob@example.test", "Message-ID: not an id"]), "me@example.test", now);
    expect(m.messageId).toMatch(/^<[0-9a-f]{32}@example\.test>$/);
    expect(m.wire).toBe(m.stored);
  });

  test("no recipient, or one no server takes: refused with what to do", () => {
    expect(() => draftToSend(draft(["Subject: x"]), "me@example.test", now)).toThrow(/no recipient in To, Cc or Bcc: add one with update_draft/);
    const err = (() => { try { draftToSend(draft(['To: "a b"@example.test']), "me@example.test", now); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(MailError);
    expect((err as Error).message).toMatch(/The draft's To holds "\\"a b\\"@example.test", which is not an address/);
  });
});
