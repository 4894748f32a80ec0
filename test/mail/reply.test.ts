// Replies and forwards as mail clients write them (src/mail/compose/quote.ts, reply-recipients.ts):
// who a reply goes to, the quote, the forwarded-message block.
import { describe, expect, test } from "bun:test";
import { appendBlock, forwardBlock, quoteLines, replyQuote, type QuotedSource } from "../../src/mail/compose/quote.ts";
import { replyRecipients } from "../../src/mail/compose/reply-recipients.ts";

const a = (address: string, name: string | null = null) => ({ name, address });
const none = { to: [], cc: [], bcc: [] };
const own = ["me@example.test"];

describe("reply recipients", () => {
  const original = { from: a("carol@example.net", "Carol"), replyTo: [] as ReturnType<typeof a>[], to: [a("me@example.test"), a("dave@example.org")], cc: [a("Me@Example.test"), a("erin@example.org"), a("dave@example.org")] };

  test("a reply goes to From; reply-all adds To and Cc, never the mailbox itself, each address once", () => {
    expect(replyRecipients(none, original, own, false).recipients).toEqual({ to: [a("carol@example.net", "Carol")], cc: [], bcc: [] });
    expect(replyRecipients(none, original, own, true).recipients).toEqual({
      to: [a("carol@example.net", "Carol"), a("dave@example.org")], cc: [a("erin@example.org")], bcc: [],
    });
  });

  test("Reply-To wins over From; a given to is kept first; a Bcc address is taken out of To and Cc", () => {
    const withReplyTo = { ...original, replyTo: [a("list@example.net")] };
    const given = { to: [a("frank@example.org")], cc: [], bcc: [a("erin@example.org")] };
    expect(replyRecipients(given, withReplyTo, own, true).recipients).toEqual({
      to: [a("frank@example.org"), a("list@example.net"), a("dave@example.org")], cc: [], bcc: [a("erin@example.org")],
    });
    expect(replyRecipients(given, withReplyTo, own, false).recipients.to).toEqual([a("frank@example.org")]);
  });

  test("one's own message is answered to its recipients; an address no server takes is skipped and named", () => {
    const mine = { from: a("me@example.test"), replyTo: [], to: [a("bob@example.test")], cc: [a('"odd guy"@example.org')] };
    expect(replyRecipients(none, mine, own, true)).toEqual({ recipients: { to: [a("bob@example.test")], cc: [], bcc: [] }, skipped: ['"odd guy"@example.org'] });
  });
});

describe("quote and forward blocks", () => {
  const src: QuotedSource = {
    from: a("carol@example.net", "Carol"), to: [a("me@example.test")], cc: [], date: "2026-11-21T14:05:00.000Z",
    subject: "Plan", bodyText: "Line one\n> older\n\n<b>tag</b> & more", truncated: true,
  };

  test("RFC 3676 quote marks: '> ' for a line, '>' more for a quoted one, '>' alone for a blank one", () => {
    expect(quoteLines("a\n> b\n\nc")).toBe("> a\n>> b\n>\n> c");
  });

  test("a reply's quote: attribution, quoted text, a [...] line when the original was cut; escaped into a blockquote", () => {
    const q = replyQuote(src);
    expect(q.text).toBe("On Sat, 21 Nov 2026 at 14:05 UTC, Carol <carol@example.net> wrote:\n> Line one\n>> older\n>\n> <b>tag</b> & more\n> […]");
    expect(q.html).toContain("<div>On Sat, 21 Nov 2026 at 14:05 UTC, Carol &#60;carol@example.net&#62; wrote:</div>");
    expect(q.html).toContain("&#60;b&#62;tag&#60;/b&#62; &#38; more");
    expect(q.html).not.toContain("<b>");
  });

  test("the forwarded-message block lists From, Date, Subject, To; appended to text and HTML as given", () => {
    const f = forwardBlock(src, false);
    expect(f.text).toBe("---------- Forwarded message ---------\nFrom: Carol <carol@example.net>\nDate: Sat, 21 Nov 2026 at 14:05 UTC\nSubject: Plan\nTo: me@example.test");
    expect(appendBlock({ text: "FYI  \n" }, f).text).toBe(`FYI\n\n${f.text}`);
    expect(appendBlock({ html: "<p>FYI</p>" }, f)).toEqual({ html: `<p>FYI</p>\n<br>\n${f.html}` });
    expect(appendBlock({}, f)).toEqual({ text: f.text });
  });
});
