// Trimming the quoted history that trails a message in get_thread (src/mail/read/thread/quoted.ts).
import { describe, expect, test } from "bun:test";
import { trimQuoted } from "../../src/mail/read/thread/quoted.ts";

describe("quoted history", () => {
  test("a trailing >-quote goes with its attribution line, also when the client wrapped it", () => {
    expect(trimQuoted("Sounds good.\n\nOn Sat, 21 Nov 2026 at 14:00, Carol <c@x.test> wrote:\n> Can we?\n>\n> Carol\n")).toEqual({ text: "Sounds good.", trimmed: true });
    expect(trimQuoted("Gern.\n\nAm 21.11.2026 um 14:00 schrieb Carol Example\n<c@x.test>:\n> Geht es?")).toEqual({ text: "Gern.", trimmed: true });
    expect(trimQuoted("Ok.\n\nOn Sat, 21 Nov 2026, Carol Example\n<c@x.test> wrote:\n> Can we?").text).toBe("Ok.");
  });

  test("Outlook's history: a separator line, or a From/Sent/To/Subject block", () => {
    expect(trimQuoted("Hi\n\n-----Original Message-----\nFrom: A\nSent: x\n\nold").text).toBe("Hi");
    expect(trimQuoted("Hi\n________________________________\nFrom: Bob\nSent: Tuesday\nTo: Alice\nSubject: Re: x\n\nold").text).toBe("Hi");
    expect(trimQuoted("Hi\n\n*From:* Bob\n*Sent:* Tuesday\n*To:* Alice\n\nold").text).toBe("Hi");
  });

  test("kept: answers between quotes, a forwarded message's header block, a message that is only a quote", () => {
    for (const text of [
      "> point one\nmy answer\n> point two\nanswer two",
      "FYI\n\n---------- Forwarded message ---------\nFrom: Dave\nDate: x\nSubject: y\nTo: z\n\nbody",
      "> only a quote\n> here",
      "From: the start of a note\nTo: whom it may concern\nSubject: not history\nnothing above it",
    ]) expect(trimQuoted(text)).toEqual({ text, trimmed: false });
  });
});
