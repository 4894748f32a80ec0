// Another client's flag changes (docs/freshness.md "Others' flag changes"): a read runs again only
// when the change can alter its answer, i.e. it names a message the read fetched in an earlier
// command, or the read picks messages by a flag. Real Dovecot, a second real client making the changes, commands counted.
// Folder "OthersFlags" (bob) is this file's own.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ImapFlow } from "imapflow";
import { getEmail } from "../../src/mail/read/message.ts";
import { recentEmails } from "../../src/mail/read/recent.ts";
import { searchEmails } from "../../src/mail/read/search.ts";
import { markRead } from "../../src/mail/write/flags.ts";
import { pooledClient, recordingClient, type RecordingClient } from "../support/command-log.ts";
import { testReaders } from "../support/content.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";
import { testAccount } from "../support/token.ts";

const FOLDER = "OthersFlags";
let h: Harness;
let client: ImapFlow;
let other: ImapFlow;
let log: RecordingClient;
const commands = (fn: () => Promise<unknown>) => log.commands(fn);

/** The other client sets (or clears) a flag on `uid`, as a phone would. */
async function otherSets(uid: number, flag: string, on = true): Promise<void> {
  if (on) await other.messageFlagsAdd(String(uid), [flag], { uid: true });
  else await other.messageFlagsRemove(String(uid), [flag], { uid: true });
}

const account = () => testAccount(h.dovecot.users.bob, h.dovecot);
const recent = (limit = 5) => recentEmails(client, { folder: FOLDER, limit, beforeUid: null, unreadOnly: false });
const read = (uid: number) => getEmail(client, { folder: FOLDER, uid, maxChars: 100 }, testReaders());

beforeAll(async () => {
  h = await getHarness();
  await h.dovecot.seedBulk("bob", FOLDER, 20, (i) => fx.plainText({ subject: `Flags ${i + 1}`, from: i % 2 ? "odd@example.org" : "even@example.org" }));
  log = await recordingClient(account());
  client = log.client;
  other = await pooledClient(account());
  await other.mailboxOpen(FOLDER);
}, 30_000);
afterAll(async () => {
  await client?.logout();
  await other?.logout();
});

test("get_email: another message's flag change does not make the read run again; its own shows, in the same FETCH", async () => {
  const first = await read(3);
  await otherSets(4, "\\Flagged");
  expect(await commands(async () => expect(await read(3)).toEqual(first))).toEqual(["UID FETCH"]);
  // Dovecot's answer already shows the change, and reports it after the answer all the same; the
  // report is given to the answer it names (a server answering from its view before the change:
  // test/mail/flag-change-order.test.ts).
  await otherSets(3, "\\Flagged");
  expect(await commands(async () => expect(await read(3)).toEqual({ ...first, flagged: true }))).toEqual(["UID FETCH"]);
});

test("get_recent_emails: a change below the page leaves it one UID FETCH, the top still known; one on the page shows, still one", async () => {
  const first = await recent();
  await otherSets(2, "\\Seen");
  expect(await commands(async () => expect((await recent()).emails).toEqual(first.emails))).toEqual(["UID FETCH"]);
  expect(await commands(() => recent())).toEqual(["UID FETCH"]); // no NOOP: the page's UIDs are still known
  await otherSets(first.emails[1]!.uid, "\\Seen");
  let page!: Awaited<ReturnType<typeof recent>>;
  expect(await commands(async () => { page = await recent(); })).toEqual(["UID FETCH"]);
  expect(page.emails[1]!.seen).toBe(true);
  expect(page.emails.filter((_, i) => i !== 1)).toEqual(first.emails.filter((_, i) => i !== 1));
});

test("search_emails by sender: a change to a message that does not match does not repeat the search", async () => {
  const search = () => searchEmails(client, { folder: FOLDER, from: "odd@example.org", limit: 3, beforeUid: null });
  const first = await search();
  await otherSets(1, "\\Flagged"); // uid 1 is from even@
  expect(await commands(async () => expect(await search()).toEqual(first))).toEqual(["UID SEARCH", "UID FETCH"]);
});

test("search_emails by a flag: another client's change to any message repeats it, so the matches are current", async () => {
  const unread = () => searchEmails(client, { folder: FOLDER, unread: true, from: "even@example.org", limit: 20, beforeUid: null });
  const before = await unread();
  const target = before.emails[0]!.uid;
  await otherSets(target, "\\Seen");
  let after!: Awaited<ReturnType<typeof unread>>;
  const cmds = await commands(async () => { after = await unread(); });
  expect(after.emails.map((e) => e.uid)).not.toContain(target);
  expect(after.total).toBe(before.total - 1);
  expect(cmds.filter((c) => c === "UID SEARCH").length).toBe(2);
  await otherSets(target, "\\Seen", false);
});

test("get_recent_emails unread only: a message another client just read leaves the page", async () => {
  const unreadPage = () => recentEmails(client, { folder: FOLDER, limit: 5, beforeUid: null, unreadOnly: true });
  const before = await unreadPage();
  const target = before.emails[0]!.uid;
  await otherSets(target, "\\Seen");
  expect((await unreadPage()).emails.map((e) => e.uid)).not.toContain(target);
  await otherSets(target, "\\Seen", false);
});

test("mark_as_read: another client's flag change elsewhere costs no second UID SEARCH and STORE", async () => {
  await markRead(client, FOLDER, [5]); // SELECT read-write
  await otherSets(6, "\\Flagged");
  expect(await commands(() => markRead(client, FOLDER, [7]))).toEqual(["UID SEARCH", "UID STORE"]);
  // An expunge is still a change: the commands run again, and the UID gone is reported missing.
  await other.messageDelete("8", { uid: true });
  let result!: Awaited<ReturnType<typeof markRead>>;
  const cmds = await commands(async () => { result = await markRead(client, FOLDER, [8, 9]); });
  expect(result.missing).toEqual([8]);
  expect(cmds[0]).toBe("UID SEARCH");
});
