// Cursors are the server's own (issue 41, finding 2): search_emails' folder "*" cursor and
// get_changes' since are taken back only as this server sealed them for this grant and mailbox, and
// within the tool's own bounds; anything else is an argument error before any IMAP work (counted on
// the scripted fake server, which sees every connection and command).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomBytes } from "node:crypto";
import type { MailAccount } from "../../src/mail/account.ts";
import { cursorKeyOf, grantCursorKey, mailboxOf, sealCursor, type CursorSeal } from "../../src/mail/read/cursor-seal.ts";
import { queryKey } from "../../src/mail/read/search-cursor.ts";
import { USERS } from "../support/dovecot.ts";
import { startFakeImap, type FakeImap } from "../support/fake-imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";

let h: Harness;
let srv: TestServer;
let fake: FakeImap;
let a: Client; // grant A on alice's mailbox
let b: Client; // grant B, the same mailbox
let onFake: Client; // a grant on the fake server: every IMAP command it makes is counted
let sealA: CursorSeal;
let sealFake: CursorSeal;
const T = `seal-${randomBytes(4).toString("hex")}`;
const criteria = { subject: T };

async function grant(account: MailAccount): Promise<{ client: Client; seal: CursorSeal }> {
  const { token, grantId } = await issueTestGrant(srv.deps, account);
  const seal = { key: grantCursorKey(cursorKeyOf(srv.deps.config.secretKey), grantId), mailbox: mailboxOf(account) };
  return { client: await connectClient(srv.mcpUrl, token), seal };
}

beforeAll(async () => {
  h = await getHarness();
  fake = await startFakeImap();
  srv = await startTestServer();
  const alice = testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port);
  ({ client: a, seal: sealA } = await grant(alice));
  ({ client: b } = await grant(alice));
  ({ client: onFake, seal: sealFake } = await grant(testAccount(USERS.alice, fake)));
  for (let i = 0; i < 3; i++) await h.dovecot.deliver("alice", plainText({ subject: `${T} #${i}` }));
}, 30_000);
afterAll(async () => {
  for (const c of [a, b, onFake]) await c.close();
  await srv.stop();
  await fake.stop();
});

/** The call's error text, and that the fake server saw no connection and no command for it. */
async function refusedOnFake(tool: string, args: Record<string, unknown>): Promise<string> {
  const before = { connections: fake.connections, commands: JSON.stringify(fake.received) };
  const res = await call(onFake, tool, args);
  expect(res.isError).toBe(true);
  expect({ connections: fake.connections, commands: JSON.stringify(fake.received) }).toEqual(before);
  return textOf(res);
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const manyFolders = (n: number, path = (i: number) => `Folder/${i}`) => Array.from({ length: n }, (_, i) => [path(i), null, null]);
const searchAll = (cursor: string) => ({ folder: "*", ...criteria, cursor });

describe("search_emails: a cursor the server did not make", () => {
  test("hand-made (the unsealed format: 5,000 folders, every one INBOX): an argument error at once, no IMAP", async () => {
    // Before: taken as it came; one call ran 5,000 SELECT + SEARCH and listed INBOX's matches 5,000 times.
    const handMade = `s1.${b64({ q: queryKey(criteria), f: manyFolders(5000, () => "INBOX") })}`;
    expect(await refusedOnFake("search_emails", searchAll(handMade))).toMatch(/Invalid arguments for search_emails: cursor: is not a cursor of this server's/);
  });

  test("sealed with another key, or altered after sealing: refused, no IMAP", async () => {
    const body = JSON.stringify({ q: queryKey(criteria), f: [["INBOX", null, null]] });
    const wrongKey = sealCursor({ ...sealFake, key: new Uint8Array(32) }, "s2", body);
    expect(await refusedOnFake("search_emails", searchAll(wrongKey))).toMatch(/cursor: is not a cursor/);
    const good = sealCursor(sealFake, "s2", body);
    const [kind, , mac] = good.split(".");
    const altered = `${kind}.${b64({ q: queryKey(criteria), f: [["INBOX", null, 2]] })}.${mac}`;
    expect(await refusedOnFake("search_emails", searchAll(altered))).toMatch(/cursor: is not a cursor/);
  });

  test("sealed by the server's own key yet beyond the tool's bounds (5,000 folders; a folder twice): refused, no IMAP", async () => {
    for (const f of [manyFolders(5000), manyFolders(201), [["INBOX", null, null], ["INBOX", null, null]]]) {
      const sealed = sealCursor(sealFake, "s2", JSON.stringify({ q: queryKey(criteria), f }));
      expect(await refusedOnFake("search_emails", searchAll(sealed))).toMatch(/cursor: is not a cursor/);
    }
    // The same seal on content within the bounds is taken: the refusals above are the bounds'.
    const within = sealCursor(sealFake, "s2", JSON.stringify({ q: queryKey(criteria), f: manyFolders(200) }));
    expect((await call(onFake, "search_emails", searchAll(within))).isError).toBeFalsy();
  });

  test("a real next_cursor works for its grant and is refused for another grant on the same mailbox", async () => {
    const first = await callOk(a, "search_emails", { folder: "*", ...criteria, limit: 1 });
    expect(first.next_cursor).toStartWith("s2.");
    const second = await callOk(a, "search_emails", { folder: "*", ...criteria, limit: 1, cursor: first.next_cursor });
    expect(second.emails).toHaveLength(1);
    expect(second.emails[0].uid).toBeLessThan(first.emails[0].uid);
    const other = await call(b, "search_emails", { folder: "*", ...criteria, limit: 1, cursor: first.next_cursor });
    expect(textOf(other)).toMatch(/Invalid arguments for search_emails: cursor: is not a cursor of this server's search_emails for this mailbox/);
  });
});

describe("get_changes: a since the server did not make", () => {
  test("altered (uidNext changed, the old tag kept): an argument error naming since, no IMAP", async () => {
    const good = sealCursor(sealFake, "c2", JSON.stringify(["INBOX", "7", null, 4, 3, "1:3"]));
    const [kind, , mac] = good.split(".");
    const altered = `${kind}.${b64(["INBOX", "7", null, 1, 3, "1:3"])}.${mac}`;
    expect(await refusedOnFake("get_changes", { folder: "INBOX", since: altered })).toMatch(/Invalid arguments for get_changes: since: is not a cursor of this server's get_changes/);
    // Before: the unsealed format, taken as it came.
    expect(await refusedOnFake("get_changes", { folder: "INBOX", since: `c1.${b64(["INBOX", "7", null, 1, null, null])}` })).toMatch(/since: is not a cursor/);
  });

  test("a cursor of grant A is refused for grant B; A goes on with it", async () => {
    const first = await callOk(a, "get_changes", { folder: "INBOX" });
    expect(textOf(await call(b, "get_changes", { folder: "INBOX", since: first.cursor }))).toMatch(/since: is not a cursor/);
    expect((await callOk(a, "get_changes", { folder: "INBOX", since: first.cursor })).full_resync).toBe(false);
  });

  test("the seal covers the mailbox: the same grant key with another account's name does not open it", async () => {
    const first = await callOk(a, "get_changes", { folder: "INBOX" });
    const body = Buffer.from(first.cursor.split(".")[1], "base64url").toString("utf8");
    expect(sealCursor(sealA, "c2", body)).toBe(first.cursor);
    expect(sealCursor({ ...sealA, mailbox: mailboxOf({ username: "bob", imap: { host: h.dovecot.host, port: h.dovecot.port } }) }, "c2", body)).not.toBe(first.cursor);
  });
});
