// search_emails with folder "*" and no account on a connection of several mailboxes, on the harness
// Dovecot through the SDK client: alice's and bob's matches interleave in arrival time across their
// folders, so every page is a merge across mailboxes and folders; paging neither repeats nor skips a
// message; a mailbox that is down lands in accounts_failed and the rest answer; a cursor of another
// connection, of one mailbox's "*" search, of a spanning get_recent_emails or a tampered one is an
// argument error naming `cursor`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { searchableFolders, searchFolders } from "../../src/mail/read/search-all.ts";
import { TOOLS } from "../../src/mcp/tools/index.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { loginImap } from "../support/imap.ts";
import { plainText } from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { freePort } from "../support/ports.ts";
import { issueTestConnection, testAccount } from "../support/token.ts";

const T = `span-${randomBytes(4).toString("hex")}`;
const SA = `SA-${T}`;
const SB = `SB-${T}`;
const ALICE = "alice@example.test";
const BOB = "bob@example.test";
// [mailbox, folder, minute of arrival]: the two mailboxes and their folders interleave in time.
const PLACED: Array<[account: string, folder: string, minute: number]> = [
  [ALICE, "INBOX", 1], [BOB, "INBOX", 2], [ALICE, SA, 3], [BOB, SB, 4], [BOB, "INBOX", 5],
  [ALICE, "INBOX", 6], [ALICE, SA, 7], [BOB, SB, 8], [BOB, "INBOX", 9], [ALICE, "Trash", 10],
];
const FOUND = PLACED.filter(([, f]) => f !== "Trash").reverse().map(([account, folder, minute]) => ({ account, folder, subject: `${T} at ${minute}` }));

let h: Harness;
let srv: TestServer;
let two: Client;
let other: Client;
let three: Client;

beforeAll(async () => {
  h = await getHarness();
  const { alice, bob } = h.dovecot.users;
  for (const [u, own] of [[alice, SA], [bob, SB]] as const) {
    const imap = await loginImap(h.dovecot, u);
    await imap.mailboxCreate(own);
    for (const [account, folder, minute] of PLACED) {
      if (account === u.email.toLowerCase()) await imap.append(folder, plainText({ subject: `${T} at ${minute}` }), [], new Date(Date.UTC(2026, 0, 1, 12, minute)));
    }
    await imap.logout();
  }
  srv = await startTestServer();
  const a = testAccount(alice, h.dovecot);
  const b = testAccount(bob, h.dovecot);
  const down = testAccount({ user: "dead@example.test", pass: "x", email: "dead@example.test" }, { host: "localhost", port: await freePort() });
  two = await connectClient(srv.mcpUrl, (await issueTestConnection(srv.deps, [{ account: a }, { account: b }])).token);
  other = await connectClient(srv.mcpUrl, (await issueTestConnection(srv.deps, [{ account: a }, { account: b }])).token);
  three = await connectClient(srv.mcpUrl, (await issueTestConnection(srv.deps, [{ account: a }, { account: down }, { account: b }])).token);
}, 30_000);
afterAll(async () => {
  for (const c of [two, other, three]) await c?.close();
  await srv?.stop();
});

type Hit = { uid: number; account: string; folder: string; subject: string };

async function allPages(client: Client, limit: number): Promise<{ pages: Hit[][]; firsts: Record<string, unknown>[] }> {
  const pages: Hit[][] = [];
  const firsts: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const res = await callOk(client, "search_emails", { folder: "*", subject: T, limit, ...(cursor ? { cursor } : {}) });
    firsts.push(res);
    pages.push(res.emails);
    cursor = res.next_cursor ?? undefined;
  } while (cursor && pages.length < 20);
  return { pages, firsts };
}

const shape = (hits: Hit[]) => hits.map(({ account, folder, subject }) => ({ account, folder, subject }));

describe('search_emails folder "*" across mailboxes', () => {
  test("one page: newest first by arrival across mailboxes and folders, each naming its account; Trash left out", async () => {
    const res = await callOk(two, "search_emails", { folder: "*", subject: T, limit: 100 });
    expect(shape(res.emails)).toEqual(FOUND);
    expect(res.total).toBe(9);
    expect(res.folders_searched).toEqual(expect.arrayContaining([`${ALICE}: INBOX`, `${ALICE}: ${SA}`, `${BOB}: INBOX`, `${BOB}: ${SB}`]));
    expect(res.folders_searched).not.toContain(`${ALICE}: Trash`);
    expect(res.next_cursor).toBeNull();
    expect(res.accounts_failed).toEqual([]);
    expect(textOf(await call(two, "search_emails", { folder: "*", subject: T, limit: 1 }))).toContain(`in ${BOB}: INBOX |`);
  });

  test("paging by 2 over 5 pages: no repeats, no gaps, the same order as one page", async () => {
    const { pages, firsts } = await allPages(two, 2);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 2, 1]);
    expect(shape(pages.flat())).toEqual(FOUND);
    expect(new Set(pages.flat().map((e) => `${e.account}/${e.folder}/${e.uid}`)).size).toBe(9);
    expect(firsts.every((r) => r.total === 9)).toBe(true);
  });

  test("paging by 4: [4, 4, 1]", async () => {
    const { pages } = await allPages(two, 4);
    expect(pages.map((p) => p.length)).toEqual([4, 4, 1]);
    expect(shape(pages.flat())).toEqual(FOUND);
  });

  test("a mailbox that is down is in accounts_failed on every page, the others page through", async () => {
    const { pages, firsts } = await allPages(three, 3);
    expect(shape(pages.flat())).toEqual(FOUND);
    for (const r of firsts) expect((r.accounts_failed as { account: string }[]).map((f) => f.account)).toEqual(["dead@example.test"]);
    expect(textOf(await call(three, "search_emails", { folder: "*", subject: T }))).toContain("Could not read dead@example.test");
  });

  test("the answer satisfies search_emails' outputSchema", async () => {
    const out = z.object(TOOLS.find((t) => t.name === "search_emails")!.config.outputSchema).strict();
    const res = await callOk(three, "search_emails", { folder: "*", subject: T, limit: 2 });
    expect(out.safeParse(res).error?.issues ?? []).toEqual([]);
  });
});

describe("cursors that are not this connection's spanning search's", () => {
  const refused = async (client: Client, args: Record<string, unknown>) => {
    const res = await call(client, "search_emails", { folder: "*", subject: T, limit: 2, ...args });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("cursor");
    return textOf(res);
  };

  test("another connection's, a connection with other mailboxes', one mailbox's, get_recent_emails', a tampered one", async () => {
    const mine = (await callOk(two, "search_emails", { folder: "*", subject: T, limit: 2 })).next_cursor as string;
    expect(mine.startsWith("s3.")).toBe(true);
    await refused(other, { cursor: mine });
    await refused(three, { cursor: mine });
    const oneMailbox = (await callOk(two, "search_emails", { folder: "*", subject: T, limit: 2, account: ALICE })).next_cursor as string;
    expect(oneMailbox.startsWith("s2.")).toBe(true);
    await refused(two, { cursor: oneMailbox });
    // And the other way: the spanning cursor is not one mailbox's.
    await refused(two, { cursor: mine, account: ALICE });
    const recent = (await callOk(two, "get_recent_emails", { limit: 1 })).next_cursor as string;
    await refused(two, { cursor: recent });
    const [kind, body, tag] = mine.split(".");
    const forged = JSON.parse(Buffer.from(body!, "base64url").toString("utf8"));
    forged.m[0] = null;
    await refused(two, { cursor: `${kind}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${tag}` });
    expect(await refused(two, { cursor: mine, subject: `${T} at 9` })).toContain("other criteria");
  });
});

describe("a mailbox's share of the folder bound (searchFolders)", () => {
  test("the first `maxFolders` searchable folders are searched, the rest named as not searched", async () => {
    const imap = await loginImap(h.dovecot, h.dovecot.users.alice);
    try {
      const all = await searchableFolders(imap);
      expect(all.length).toBeGreaterThan(2);
      const runs = await searchFolders(imap, { subject: T }, 10, null, 2);
      expect(runs.folders_searched).toEqual(all.slice(0, 2));
      expect(runs.not_searched).toEqual(all.slice(2));
      expect(runs.marksAfter(0)).toHaveLength(2);
    } finally {
      await imap.logout();
    }
  });
});
