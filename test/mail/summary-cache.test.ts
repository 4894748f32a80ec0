// The per-connection summary cache (src/mail/read/summary-cache.ts): keyed by folder, UIDVALIDITY and
// UID, least recently used out past KEPT_PER_CONNECTION, separate per connection.
import { describe, expect, test } from "bun:test";
import { isRope } from "bun:jsc";
import type { ImapFlow } from "imapflow";
import { cachedSummary, KEPT_PER_CONNECTION, rememberSummary, validityOf, type FixedSummary } from "../../src/mail/read/summary-cache.ts";

const client = (uidValidity?: bigint) => ({ mailbox: uidValidity === undefined ? false : { uidValidity } }) as unknown as ImapFlow;
const fixed = (uid: number): FixedSummary => ({
  uid, folder: "INBOX", message_id: null, subject: `s${uid}`, from: null, to: [], cc: [], date: null, has_attachments: false, size: 1, sender_check: null, unsubscribe: null,
});

describe("summary cache", () => {
  test("a kept summary is found by folder, UIDVALIDITY and UID only", () => {
    const c = client(7n);
    rememberSummary(c, "INBOX", "7", fixed(1));
    expect(cachedSummary(c, "INBOX", "7", 1)?.subject).toBe("s1");
    expect(cachedSummary(c, "INBOX", "8", 1)).toBeUndefined(); // the folder was recreated: new UIDVALIDITY
    expect(cachedSummary(c, "Archive", "7", 1)).toBeUndefined();
    expect(cachedSummary(client(7n), "INBOX", "7", 1)).toBeUndefined(); // another connection
  });

  test("past the bound the least recently used goes", () => {
    const c = client(1n);
    for (let uid = 1; uid <= KEPT_PER_CONNECTION; uid++) rememberSummary(c, "INBOX", "1", fixed(uid));
    expect(cachedSummary(c, "INBOX", "1", 1)).toBeDefined(); // used: now the most recent
    rememberSummary(c, "INBOX", "1", fixed(KEPT_PER_CONNECTION + 1));
    expect(cachedSummary(c, "INBOX", "1", 2)).toBeUndefined();
    expect(cachedSummary(c, "INBOX", "1", 1)).toBeDefined();
    expect(cachedSummary(c, "INBOX", "1", KEPT_PER_CONNECTION + 1)).toBeDefined();
  });

  test("UIDVALIDITY of the selected folder as text; none without one", () => {
    expect(validityOf(client(1700000000n))).toBe("1700000000");
    expect(validityOf(client())).toBeNull();
  });
});

test("a kept summary's text is its own, not a view of the response line it was cut from", () => {
  const c = client(1n);
  const line = `* 1 FETCH (ENVELOPE ("${"x".repeat(10_000)}" "<id@example.org>"))`.toLowerCase();
  const view = line.slice(40, 60);
  expect(isRope(view)).toBe(true); // a substring: holds the whole line
  rememberSummary(c, "INBOX", "1", { ...fixed(1), subject: view, message_id: view, from: { name: view, address: null }, to: [{ name: null, address: view }] });
  const kept = cachedSummary(c, "INBOX", "1", 1)!;
  for (const text of [kept.subject, kept.message_id!, kept.from!.name!, kept.to[0]!.address!]) {
    expect(text).toBe(view);
    expect(isRope(text)).toBe(false);
  }
});
