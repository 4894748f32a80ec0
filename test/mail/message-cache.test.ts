// The per-connection cache of messages get_email read (src/mail/read/message-cache.ts): keyed by
// folder, UIDVALIDITY and UID, bounded in bytes per connection (least recently read out first), a copy
// of what it was given. What a re-read sends and returns: test/mail/round-trips.test.ts.
import { expect, test } from "bun:test";
import { isRope } from "bun:jsc";
import type { ImapFlow } from "imapflow";
import { KEPT_MESSAGE_BYTES, keepMessage, keptMessage, type KeptMessage } from "../../src/mail/read/message-cache.ts";

const client = () => ({ mailbox: { uidValidity: 1n } }) as unknown as ImapFlow;
/** A kept message whose body is `bytes` bytes as counted (2 per character). */
const message = (uid: number, bytes: number): KeptMessage => ({
  fixed: { uid, folder: "INBOX", message_id: null, subject: `s${uid}`, from: null, to: [], cc: [], date: null, has_attachments: false, size: bytes, sender_check: null, unsubscribe: null },
  read: {
    inReplyTo: null, references: [], replyTo: [], segments: [{ kind: "text", text: "A".repeat(bytes / 2) }], notes: [], cut: false,
    attachments: [], attachmentsOmitted: 0, invitation: null,
  },
});

test("a kept message is found by folder, UIDVALIDITY and UID, on its own connection only", () => {
  const c = client();
  keepMessage(c, "INBOX", "1", message(1, 100));
  expect(keptMessage(c, "INBOX", "1", 1)?.fixed.subject).toBe("s1");
  expect(keptMessage(c, "INBOX", "2", 1)).toBeUndefined(); // the folder was recreated: new UIDVALIDITY
  expect(keptMessage(c, "Archive", "1", 1)).toBeUndefined();
  expect(keptMessage(client(), "INBOX", "1", 1)).toBeUndefined();
});

test("at most KEPT_MESSAGE_BYTES per connection: the least recently read go first, a larger message is not kept", () => {
  const c = client();
  const quarter = KEPT_MESSAGE_BYTES / 4 - 400;
  for (let uid = 1; uid <= 4; uid++) keepMessage(c, "INBOX", "1", message(uid, quarter));
  expect(keptMessage(c, "INBOX", "1", 1)).toBeDefined(); // read again: now the most recent
  keepMessage(c, "INBOX", "1", message(5, quarter));
  expect(keptMessage(c, "INBOX", "1", 2)).toBeUndefined();
  for (const uid of [1, 3, 4, 5]) expect(keptMessage(c, "INBOX", "1", uid)).toBeDefined();
  keepMessage(c, "INBOX", "1", message(6, KEPT_MESSAGE_BYTES + 2));
  expect(keptMessage(c, "INBOX", "1", 6)).toBeUndefined();
  expect(keptMessage(c, "INBOX", "1", 5)).toBeDefined(); // nothing was dropped for it
  // Kept again under the same key: counted once.
  for (let i = 0; i < 10; i++) keepMessage(c, "INBOX", "1", message(5, quarter));
  for (const uid of [1, 3, 4, 5]) expect(keptMessage(c, "INBOX", "1", uid)).toBeDefined();
});

test("what is kept is a copy: no string cut out of a response line or header block is shared", () => {
  const c = client();
  const m = message(1, 10);
  const line = `* 1 FETCH (BODYSTRUCTURE ("application" "pdf" ("name" "${"x".repeat(10_000)}.pdf")))`;
  const view = line.slice(40, 60);
  expect(isRope(view)).toBe(true);
  keepMessage(c, "INBOX", "1", {
    fixed: { ...m.fixed, subject: view },
    read: { ...m.read, inReplyTo: view, segments: [{ kind: "html", html: view }], attachments: [{ part: "2", filename: view, content_type: "application/pdf", size: 1 }] },
  });
  const kept = keptMessage(c, "INBOX", "1", 1)!;
  // A result shares what is kept: it is frozen all the way down, so no caller can change a later read.
  expect([kept, kept.fixed, kept.read, kept.read.segments, kept.read.attachments[0]].every((o) => Object.isFrozen(o))).toBe(true);
  const segment = kept.read.segments[0]!;
  for (const text of [kept.fixed.subject, kept.read.inReplyTo!, kept.read.attachments[0]!.filename!, segment.kind === "html" ? segment.html : ""]) {
    expect(text).toBe(view);
    expect(isRope(text)).toBe(false);
  }
});
