// The merge of a spanning read's pages (src/mcp/accounts/merge.ts) on its own: the order across
// mailboxes is the messages' time order whatever their dates look like, and only what the page
// keeps carries its account.
import { describe, expect, test } from "bun:test";
import { mergeEmails } from "../../src/mcp/accounts/merge.ts";
import type { MailboxAnswer } from "../../src/mcp/accounts/span.ts";
import type { Summary } from "../../src/mail/read/summary.ts";

const seal = { key: new Uint8Array(32), mailbox: "span" };

function summary(uid: number, date: string | null): Summary {
  return {
    uid, folder: "INBOX", message_id: null, subject: `m${uid}`, from: null, to: [], cc: [], date, seen: true, flagged: false,
    has_attachments: false, size: 1, labels: [], sender_check: null, unsubscribe: null,
  };
}

/** One mailbox's answer: its summaries newest first (highest UID first, as a page comes). */
const answer = (account: string, position: number, emails: Summary[], next: number | null = null): MailboxAnswer =>
  ({ ref: { position, account, several: true }, structured: { folder: "INBOX", emails, next_before_uid: next } });

const order = (answers: MailboxAnswer[], limit = 20) =>
  (((mergeEmails(answers, null, limit, seal, { folder: "INBOX" }).structuredContent as { emails: unknown }).emails) as Array<Summary & { account: string }>)
    .map((e) => `${e.account}:${e.uid}`);

describe("merging mailboxes' pages", () => {
  test("newest first by date across mailboxes; a message without a date last", () => {
    const a = answer("a@x.test", 0, [summary(3, "2024-03-03T00:00:00.000Z"), summary(2, null)]);
    const b = answer("b@x.test", 1, [summary(9, "2024-03-04T00:00:00.000Z"), summary(8, "2024-03-01T00:00:00.000Z")]);
    expect(order([a, b])).toEqual(["b@x.test:9", "a@x.test:3", "b@x.test:8", "a@x.test:2"]);
  });

  test("a date past year 9999 or before year 0 sorts by time, not by its text", () => {
    // As text "+010000-…" sorts before "2024-…" and "-000001-…" after nothing useful: time order puts them first and last.
    const a = answer("a@x.test", 0, [summary(5, "+010000-01-01T00:00:00.000Z"), summary(4, "2024-05-01T00:00:00.000Z")]);
    const b = answer("b@x.test", 1, [summary(7, "2024-06-01T00:00:00.000Z"), summary(6, "-000001-01-01T00:00:00.000Z")]);
    expect(order([a, b])).toEqual(["a@x.test:5", "b@x.test:7", "a@x.test:4", "b@x.test:6"]);
  });

  test("only the kept summaries are tagged with their account; the mailbox's own answer is left as it came", () => {
    const emails = [summary(2, "2024-01-02T00:00:00.000Z"), summary(1, "2024-01-01T00:00:00.000Z")];
    const a = answer("a@x.test", 0, emails, 1);
    expect(order([a], 1)).toEqual(["a@x.test:2"]);
    expect(emails.every((e) => !("account" in e))).toBe(true);
  });
});
