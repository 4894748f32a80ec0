// What our pooled client (src/mail/imap/client.ts) sends, command by command: a lean login, and
// reads that are current with as few round trips as the freshness rules allow (docs/freshness.md).
// Folder "RoundTrips" (bob) is this file's own.
import { testReaders } from "../support/content.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ImapFlow } from "imapflow";
import { getEmail } from "../../src/mail/read/message.ts";
import { searchEmails } from "../../src/mail/read/search.ts";
import { recentEmails } from "../../src/mail/read/recent.ts";
import { markRead } from "../../src/mail/write/flags.ts";
import { labelEmails } from "../../src/mail/write/labels.ts";
import { pooledClient, recordingClient, type RecordingClient } from "../support/command-log.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";
import { testAccount } from "../support/token.ts";

const FOLDER = "RoundTrips";
let h: Harness;
let client: ImapFlow;
let log: RecordingClient;
const recent = (limit = 5) => recentEmails(client, { folder: FOLDER, limit, beforeUid: null, unreadOnly: false });
const commands = (fn: () => Promise<unknown>) => log.commands(fn);

beforeAll(async () => {
  h = await getHarness();
  await h.dovecot.seedBulk("bob", FOLDER, 30, (i) => fx.plainText({ subject: `Trip ${i + 1}` }));
  log = await recordingClient(testAccount(h.dovecot.users.bob, h.dovecot));
  client = log.client;
}, 30_000);
afterAll(() => client?.logout());

test("login sends LOGIN alone: no ID, NAMESPACE, COMPRESS or ENABLE (the greeting carries CAPABILITY)", () => {
  expect(log.sent.map((c) => c.split(" ")[0])).toEqual(["LOGIN"]);
  expect(client.usable).toBe(true);
});

test("the first read of a folder: EXAMINE is fresh by itself; no NOOP, no LIST/LSUB for metadata", async () => {
  expect(await commands(() => recent())).toEqual(["EXAMINE RoundTrips", "FETCH 26:30"]);
});

test("a folder that does not exist: the SELECT fails and a LIST says so", async () => {
  const err = await recentEmails(client, { folder: "RoundTripsNope", limit: 5, beforeUid: null, unreadOnly: false }).catch((e) => e);
  expect(String(err.message)).toMatch(/"RoundTripsNope" does not exist.*RoundTrips/);
});

test("the same page again, nothing changed: one UID FETCH, proven current by the server's silence", async () => {
  const first = await recent();
  expect(await commands(() => recent())).toEqual(["UID FETCH"]);
  expect((await recent()).emails).toEqual(first.emails);
});

test("after another client's delivery: the UID FETCH reveals it, and the page is read again", async () => {
  await h.dovecot.deliver("bob", fx.plainText({ subject: "Trip late" }), FOLDER);
  let page!: Awaited<ReturnType<typeof recent>>;
  const cmds = await commands(async () => { page = await recent(); });
  expect(cmds).toEqual(["UID FETCH", "FETCH 27:31"]);
  expect(page.emails[0]!.subject).toBe("Trip late");
  expect(page.emails.length).toBe(5);
});

test("a larger page than is known: NOOP, then the sequence range", async () => {
  expect(await commands(() => recent(10))).toEqual(["NOOP", "FETCH 22:31"]);
});

test("get_email and search on the selected folder: no NOOP", async () => {
  expect(await commands(() => getEmail(client, { folder: FOLDER, uid: 3, maxChars: 100 }, testReaders()))).toEqual(["UID FETCH"]);
  const cmds = await commands(() => searchEmails(client, { folder: FOLDER, subject: "Trip 2", limit: 5, beforeUid: null }));
  expect(cmds).toEqual(["UID SEARCH", "UID FETCH"]);
});

test("a page whose messages were summarized before: only their flags are fetched, and they are current", async () => {
  const first = await recent();
  log.sent.length = 0;
  const again = await recent();
  expect(log.sent).toEqual([expect.stringMatching(/^UID FETCH \d+:\* \(UID FLAGS\)$/)]);
  expect(again.emails).toEqual(first.emails);
  // Another client marks the newest one read: the kept summary shows the flag as the server has it now.
  const other = await pooledClient(testAccount(h.dovecot.users.bob, h.dovecot));
  await other.mailboxOpen(FOLDER);
  await other.messageFlagsAdd(String(first.emails[0]!.uid), ["\\Seen"], { uid: true });
  await other.logout();
  const later = await recent();
  expect(later.emails[0]!.seen).toBe(true);
  expect(later.emails.slice(1)).toEqual(first.emails.slice(1));
  // A search page of kept messages: the search, then their flags.
  const page = () => searchEmails(client, { folder: FOLDER, subject: "Trip", limit: 3, beforeUid: null });
  await page();
  log.sent.length = 0;
  await page();
  expect(log.sent.map((c) => c.replace(/ [\d,:]+ /, " N "))).toEqual([expect.stringMatching(/^UID SEARCH/), "UID FETCH N (UID FLAGS)"]);
});

test("a message read before: only its flags are fetched, every piece reads as on a first read, and others' changes show", async () => {
  const read = (uid: number, offset = 0, maxChars = 100) => getEmail(client, { folder: FOLDER, uid, maxChars, offset }, testReaders());
  const first = await read(7);
  const second = await read(7, 30, 40); // a later piece of the body: rendered from the kept source
  log.sent.length = 0;
  expect(await read(7)).toEqual(first);
  expect(log.sent).toEqual(["UID FETCH 7 (UID FLAGS)"]);
  expect(second.body_text).toBe(first.body_text.slice(30, 70));
  // Another client flags it, then expunges it: the re-read shows the flag, then says it is gone.
  const other = await pooledClient(testAccount(h.dovecot.users.bob, h.dovecot));
  await other.mailboxOpen(FOLDER);
  await other.messageFlagsAdd("7", ["\\Flagged"], { uid: true });
  expect(await read(7)).toEqual({ ...first, flagged: true });
  await other.messageDelete("7", { uid: true });
  await other.logout();
  expect(String(((await read(7).catch((e: Error) => e)) as Error).message)).toMatch(/no message with UID 7|not found|does not exist/i);
});

test("a flag change on a folder selected read-write by an earlier write: no NOOP, its UID commands verify", async () => {
  await markRead(client, FOLDER, [1]); // SELECT (read-write): fresh by itself
  expect(await commands(() => markRead(client, FOLDER, [2]))).toEqual(["UID SEARCH", "UID STORE"]);
});

test("a label change on the selected folder: no NOOP; another client's expunge meanwhile runs it again", async () => {
  const label = (uids: number[]) => labelEmails(client, FOLDER, uids, { add: ["$Trip"], remove: [] });
  await markRead(client, FOLDER, [20]); // the folder selected read-write, as a write leaves it
  expect(await commands(() => label([20]))).toEqual(["UID SEARCH", "UID STORE"]);
  const other = await pooledClient(testAccount(h.dovecot.users.bob, h.dovecot));
  await other.mailboxOpen(FOLDER);
  await other.messageDelete("22", { uid: true });
  await other.logout();
  let result: Awaited<ReturnType<typeof label>> | undefined;
  // The UID SEARCH's end reports the expunge (docs/freshness.md "verify"): both commands run again.
  expect(await commands(async () => { result = await label([21, 22]); })).toEqual(["UID SEARCH", "UID STORE", "UID SEARCH", "UID STORE"]);
  expect(result).toEqual({ folder: FOLDER, kind: "keywords", updated: 1, missing: [22] });
  const [msg] = await client.fetchAll("21", { uid: true, flags: true }, { uid: true });
  expect([...msg!.flags!]).toContain("$Trip");
});

test("get_email on a message over 4 MB: its text part in one FETCH, as quotes and threads read it (read/text-part.ts)", async () => {
  const folder = "RoundTripsLarge";
  const line = "A long line of the report, one of many.\r\n";
  await client.mailboxCreate(folder);
  await h.dovecot.deliver("bob", ["From: a@example.org", "To: bob@example.test", "Subject: Big text", "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8; format=flowed", "", line.repeat(Math.ceil(5 * 1024 * 1024 / line.length))].join("\r\n"), folder);
  const lock = await client.getMailboxLock(folder, { readOnly: true });
  const uid = await client.search({ subject: "Big text" }, { uid: true }).finally(() => lock.release());
  let email!: Awaited<ReturnType<typeof getEmail>>;
  const cmds = await commands(async () => { email = await getEmail(client, { folder, uid: (uid || [])[0]!, maxChars: 100 }, testReaders()); });
  // Before: imapflow's download(), a FETCH of BODYSTRUCTURE and then 2 MB in 64 KB pieces, 33 more round trips.
  expect(cmds).toEqual(["UID FETCH", "UID FETCH"]);
  expect(email.body_text).toStartWith("A long line of the report, one of many.");
  expect(email.truncated).toBe(true);
});
