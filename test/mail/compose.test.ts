// Unit tests (no servers): address and UID checks, MIME building, reply threading, attachments.
import { describe, expect, test } from "bun:test";
import { simpleParser } from "mailparser";
import { isValidAddress, MAX_RECIPIENTS, parseAllRecipients, parseRecipients } from "../../src/mail/compose/recipients.ts";
import { checkUids } from "../../src/mail/imap/uids.ts";
import { InputError } from "../../src/mail/errors.ts";
import { composeMessage, decodeAttachments, MAX_ATTACHMENT_BYTES, newMessageId, replyThreading } from "../../src/mail/compose/message.ts";
import { MAX_REFERENCES, parseMessageIds } from "../../src/mail/mime/message-ids.ts";

const fails = (fn: () => unknown, argument: string, pattern?: RegExp) => {
  let err: unknown;
  try { fn(); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(InputError);
  expect((err as InputError).argument).toBe(argument);
  if (pattern) expect((err as Error).message).toMatch(pattern);
};

describe("addresses", () => {
  test("valid and invalid bare addresses", () => {
    for (const a of ["a@b.co", "first.last+tag@sub.example.test", "o'neil@example.ie", "zoe@exämple.de"]) expect(isValidAddress(a)).toBe(true);
    // RFC 5322 §3.4.1: a one-label domain is a domain (homelab and intranet servers).
    for (const a of ["bob@localhost", "me@homelab", "a@b"]) expect(isValidAddress(a)).toBe(true);
    for (const a of ["", "plain", "@b.co", "a@", "a@123", "a@-b", "a..b@c.de", ".a@c.de", "a@-b.de", "a@b.123", "a b@c.de", "a@b@c.de", "zoë@example.de", `${"x".repeat(65)}@b.de`]) {
      expect(isValidAddress(a)).toBe(false);
    }
  });

  test("names, comma lists and single strings are accepted", () => {
    expect(parseRecipients("to", "Bob <bob@example.test>")).toEqual([{ name: "Bob", address: "bob@example.test" }]);
    expect(parseRecipients("to", "a@x.io, \"Doe, J\" <j@x.io>")).toEqual([{ name: null, address: "a@x.io" }, { name: "Doe, J", address: "j@x.io" }]);
    expect(parseRecipients("cc", ["a@x.io", "b@x.io"]).map((m) => m.address)).toEqual(["a@x.io", "b@x.io"]);
    expect(parseRecipients("cc", undefined)).toEqual([]);
  });

  test("header injection, groups, junk and empty `to` are refused with the argument named", () => {
    fails(() => parseRecipients("to", "a@x.io\r\nBcc: evil@x.io"), "to", /line break/);
    fails(() => parseRecipients("cc", "friends: a@x.io, b@x.io;"), "cc", /group/);
    fails(() => parseRecipients("bcc", "not-an-address"), "bcc", /not a valid email address/);
    fails(() => parseRecipients("to", ""), "to");
    fails(() => parseAllRecipients({ to: [] }), "to", /at least one/);
    const many = Array.from({ length: MAX_RECIPIENTS + 1 }, (_, i) => `u${i}@x.io`);
    fails(() => parseAllRecipients({ to: many }), "to", /at most 100/);
  });

  test("uids: 1..100 positive integers, duplicates collapse", () => {
    expect(checkUids([3, 1, 3])).toEqual([3, 1]);
    fails(() => checkUids([]), "uids");
    fails(() => checkUids([0]), "uids", /not a UID/);
    fails(() => checkUids([-4]), "uids");
    fails(() => checkUids([1.5]), "uids");
    fails(() => checkUids(Array.from({ length: 101 }, (_, i) => i + 1)), "uids", /at most 100/);
  });
});

describe("compose", () => {
  const recipients = parseAllRecipients({ to: "Bob <bob@example.test>", cc: "carol@example.net", bcc: "dave@example.org" });

  test("Message-ID is ours, Bcc only in the stored copy, envelope has every recipient", async () => {
    const msg = await composeMessage({ from: "alice@example.test", recipients, subject: "Grüße ✓", text: "Hi Bob\nline 2" });
    expect(msg.messageId).toMatch(/^<[0-9a-f]{32}@example\.test>$/);
    const stored = await simpleParser(msg.stored);
    const wire = await simpleParser(msg.wire);
    for (const m of [stored, wire]) {
      expect(m.messageId).toBe(msg.messageId);
      expect(m.subject).toBe("Grüße ✓");
      expect(m.text?.trimEnd()).toBe("Hi Bob\nline 2");
      expect(m.from?.value[0]?.address).toBe("alice@example.test");
    }
    expect(JSON.stringify(stored.bcc)).toContain("dave@example.org");
    expect(wire.bcc).toBeUndefined();
    expect(msg.wire.toString()).not.toContain("dave@example.org");
    expect(msg.wire.toString()).toContain("\r\n"); // CRLF, as IMAP APPEND and SMTP want
    expect(msg.envelope).toEqual({ from: "alice@example.test", to: ["bob@example.test", "carol@example.net", "dave@example.org"] });
  });

  test("attachments survive byte for byte", async () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    const [att] = decodeAttachments([{ filename: "data.bin", content_base64: bytes.toString("base64"), content_type: "application/x-test" }]);
    const msg = await composeMessage({ from: "alice@example.test", recipients, subject: "s", html: "<p>hi</p>", attachments: [att!] });
    const parsed = await simpleParser(msg.wire);
    expect(parsed.html).toContain("<p>hi</p>");
    expect(parsed.attachments[0]?.filename).toBe("data.bin");
    expect(parsed.attachments[0]?.contentType).toBe("application/x-test");
    expect(Buffer.compare(parsed.attachments[0]!.content, bytes)).toBe(0);
  });

  test("an IDN sender domain gives an ASCII Message-ID", () => {
    expect(newMessageId("zoë@exämple.de")).toMatch(/@xn--exmple-cua\.de>$/);
  });
});

describe("reply threading (RFC 5322 §3.6.4)", () => {
  test("References = parent References + parent Message-ID; Re: added once", () => {
    const t = replyThreading({ messageId: "<p@x>", inReplyTo: "<g@x>", references: ["<a@x>", "<g@x>"], subject: "Plans" });
    expect(t).toEqual({ subject: "Re: Plans", inReplyTo: "<p@x>", references: ["<a@x>", "<g@x>", "<p@x>"] });
    expect(replyThreading({ messageId: "<p@x>", inReplyTo: null, references: [], subject: "RE: Plans" }).subject).toBe("RE: Plans");
  });

  test("no References: falls back to In-Reply-To; a given subject is kept as is", () => {
    const t = replyThreading({ messageId: "<p@x>", inReplyTo: "<g@x>", references: [], subject: "Plans" }, "Re: Re: custom");
    expect(t).toEqual({ subject: "Re: Re: custom", inReplyTo: "<p@x>", references: ["<g@x>", "<p@x>"] });
  });

  test("a parent without Message-ID still gets Re: but no threading headers", () => {
    expect(replyThreading({ messageId: null, inReplyTo: null, references: [], subject: "x" })).toEqual({ subject: "Re: x" });
    expect(parseMessageIds("<a@x>\r\n <b@y> junk")).toEqual(["<a@x>", "<b@y>"]);
  });

  test("message ids follow the RFC 5322 §3.6.4 grammar; anything around them is dropped", () => {
    expect(parseMessageIds("<id@x> Bcc: victim@evil.test")).toEqual(["<id@x>"]);
    expect(parseMessageIds("<CA+y=z@mail.gmail.com> <a@[10.0.0.1]> <no-at-sign> <a b@x> <a@b@c> <@x> <a@>")).toEqual(["<CA+y=z@mail.gmail.com>", "<a@[10.0.0.1]>"]);
    expect(parseMessageIds("<a@x>\r\nBcc: v@x <b@y>")).toEqual(["<a@x>", "<b@y>"]);
    expect(parseMessageIds(`<${"x".repeat(990)}@y>`)).toEqual([]); // could not fit a 998-octet line
  });

  test("References keeps the root and the newest ids, at most 20, each once", () => {
    const chain = Array.from({ length: 50 }, (_, i) => `<m${i}@x>`);
    const t = replyThreading({ messageId: "<p@x>", inReplyTo: "<m49@x>", references: [...chain, "<m3@x>"], subject: "s" });
    expect(t.references).toHaveLength(MAX_REFERENCES);
    expect(t.references![0]).toBe("<m0@x>");
    expect(t.references!.slice(1)).toEqual([...chain.slice(-18), "<p@x>"]);
  });
});

describe("attachments", () => {
  const att = (content_base64: string, extra: object = {}) => [{ filename: "f.txt", content_base64, ...extra }];

  test("strict base64: wrong characters, padding or length are refused; line breaks are fine", () => {
    expect(decodeAttachments(att("aGVs\r\nbG8="))[0]!.content.toString()).toBe("hello");
    expect(decodeAttachments(att(""))[0]!.content.length).toBe(0);
    fails(() => decodeAttachments(att("aGVsbG8")), "attachments[0].content_base64"); // length not a multiple of 4
    fails(() => decodeAttachments(att("aGVs*G8=")), "attachments[0].content_base64");
    fails(() => decodeAttachments(att("aG=sbG8=")), "attachments[0].content_base64");
    fails(() => decodeAttachments(att("aGVsbG8_")), "attachments[0].content_base64"); // base64url is not base64
    fails(() => decodeAttachments(att("aGVs bG8=")), "attachments[0].content_base64");
  });

  test("file names and content types are checked", () => {
    fails(() => decodeAttachments([{ filename: "../etc/passwd", content_base64: "" }]), "attachments[0].filename");
    fails(() => decodeAttachments([{ filename: " ", content_base64: "" }]), "attachments[0].filename");
    fails(() => decodeAttachments(att("", { content_type: "text/plain; charset=x\r\nX: y" })), "attachments[0].content_type");
  });

  test("more than 20 MB in all is refused before decoding", () => {
    const half = "A".repeat(Math.ceil((MAX_ATTACHMENT_BYTES / 2 + 8) / 3) * 4); // just over 10 MB each
    fails(() => decodeAttachments([{ filename: "a", content_base64: half }, { filename: "b", content_base64: half }]), "attachments", /20 MB/);
    const exact = "A".repeat(Math.floor(MAX_ATTACHMENT_BYTES / 3) * 4); // just under 20 MB
    expect(decodeAttachments([{ filename: "a", content_base64: exact }])[0]!.content.length).toBeLessThanOrEqual(MAX_ATTACHMENT_BYTES);
  });
});
