// What the read functions send to the server: a sequence range from the end, never a whole-folder
// SEARCH, and only the page's messages fetched. Folder "ReadCost" (bob) is this file's own.
import { testReaders } from "../support/content.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ImapFlow } from "imapflow";
import { getEmail } from "../../src/mail/read/message.ts";
import { searchEmails } from "../../src/mail/read/search.ts";
import { recentEmails } from "../../src/mail/read/recent.ts";
import { getHarness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";

const FOLDER = "ReadCost";
let client: ImapFlow;
let sent: string[] = [];

beforeAll(async () => {
  const h = await getHarness();
  await h.dovecot.seedBulk("bob", FOLDER, 3000, (i) => fx.plainText({ subject: `Cost ${i + 1}` }, `n=${i + 1}\n`));
  const { bob } = h.dovecot.users;
  const record = (o: { src?: string; msg?: string }) => { if (o.src === "c" && o.msg) sent.push(o.msg.replace(/^\S+ /, "")); };
  const logger = { debug: record, info: () => {}, warn: () => {}, error: () => {}, trace: () => {} };
  client = new ImapFlow({ host: h.dovecot.host, port: h.dovecot.port, secure: false, auth: { user: bob.user, pass: bob.pass }, logger, logRaw: true, disableAutoIdle: true } as never);
  await client.connect();
}, 30_000);
afterAll(() => client?.logout());

async function commands(fn: () => Promise<unknown>): Promise<string[]> {
  sent = [];
  await fn();
  return sent.filter((c) => !/^(NOOP|IDLE|DONE)/.test(c));
}

test("first page: EXAMINE, then one FETCH of the last `limit` sequence numbers", async () => {
  const cmds = await commands(() => recentEmails(client, { folder: FOLDER, limit: 20, beforeUid: null, unreadOnly: false }));
  // imapflow LISTs (and LSUBs) a folder once per connection before its first EXAMINE, then caches it.
  const rest = cmds.filter((c) => !/^(LIST|LSUB) /.test(c));
  expect(rest[0]).toMatch(/^EXAMINE "?ReadCost/);
  expect(rest.slice(1)).toEqual([expect.stringMatching(/^FETCH 2981:3000 \(UID FLAGS/)]);
});

test("a later page: one ESEARCH COUNT below the cursor, then a FETCH of `limit` messages", async () => {
  const cmds = await commands(() => recentEmails(client, { folder: FOLDER, limit: 20, beforeUid: 1500, unreadOnly: false }));
  expect(cmds.filter((c) => /SEARCH/.test(c))).toEqual(["SEARCH RETURN (COUNT) UID 1:1499"]);
  expect(cmds.filter((c) => /FETCH/.test(c))).toEqual([expect.stringMatching(/^FETCH 1480:1499 /)]);
});

test("search: one ESEARCH for all matches, one FETCH of the page's UIDs", async () => {
  const cmds = await commands(() => searchEmails(client, { folder: FOLDER, subject: "Cost 2", limit: 5, beforeUid: null }));
  expect(cmds.filter((c) => /SEARCH/.test(c))).toEqual([expect.stringMatching(/^UID SEARCH RETURN \(ALL\) SUBJECT/)]);
  expect(cmds.filter((c) => /FETCH/.test(c))).toEqual([expect.stringMatching(/^UID FETCH 2995:2999 /)]);
});

test("get_email fetches with BODY.PEEK[] in a read-only EXAMINE", async () => {
  const cmds = await commands(() => getEmail(client, { folder: FOLDER, uid: 7, maxChars: 100 }, testReaders()));
  expect(cmds.some((c) => /^EXAMINE/.test(c)) || cmds.every((c) => !/^SELECT/.test(c))).toBe(true);
  expect(cmds.filter((c) => /FETCH/.test(c))).toEqual([expect.stringMatching(/^UID FETCH 7 .*BODY\.PEEK\[\]/)]);
});
