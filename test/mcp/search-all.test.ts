// search_emails across every folder (folder "*") and the new criteria, through the SDK client on the
// harness Dovecot: a message filed in a subfolder and one in Sent are found with their folder, Trash
// and Junk are left out, and paging with the cursor neither repeats nor skips a message, even when
// mail arrives between pages.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ImapFlow } from "imapflow";
import { randomBytes } from "node:crypto";
import { findBySubject, loginImap } from "../support/imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { plainText, withAttachment } from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

let h: Harness;
let srv: TestServer;
let mcp: Client;
let imap: ImapFlow;
const T = `find-${randomBytes(4).toString("hex")}`;
const SA = `SA-${T}`;
const SUB = `${SA}/Sub`;
// Arrival times (INTERNALDATE) interleave the folders, so a page really is a merge.
const PLACED: Array<[folder: string, minute: number]> = [
  ["INBOX", 1], [SA, 2], [SUB, 3], ["INBOX", 4], ["Sent", 5], [SA, 6], [SUB, 7], [SA, 8], ["Trash", 9], ["Junk", 10],
];

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  mcp = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port)));
  imap = await loginImap(h.dovecot, h.dovecot.users.alice);
  await imap.mailboxCreate(SA);
  await imap.mailboxCreate(SUB);
  for (const [folder, minute] of PLACED) {
    await imap.append(folder, plainText({ subject: `${T} at ${minute}` }), [], new Date(Date.UTC(2026, 0, 1, 12, minute)));
  }
}, 30_000);
afterAll(async () => {
  await mcp.close();
  await imap.logout();
  await srv.stop();
});

type Hit = { uid: number; folder: string; subject: string };

async function allPages(args: Record<string, unknown>, limit: number): Promise<{ pages: Hit[][]; total: number; searched: string[] }> {
  const pages: Hit[][] = [];
  let cursor: string | undefined;
  let first: { total: number; folders_searched: string[] } | undefined;
  do {
    const res = await callOk(mcp, "search_emails", { folder: "*", ...args, limit, ...(cursor ? { cursor } : {}) });
    first ??= res;
    pages.push(res.emails);
    cursor = res.next_cursor ?? undefined;
    expect(res.next_before_uid).toBeNull();
  } while (cursor && pages.length < 20);
  return { pages, total: first!.total, searched: first!.folders_searched };
}

describe('search_emails folder "*"', () => {
  test("finds the subfolder and Sent messages with their folder, newest first, never Trash or Junk", async () => {
    const res = await callOk(mcp, "search_emails", { folder: "*", subject: T, limit: 100 });
    expect(res.total).toBe(8);
    expect(res.emails.map((e: Hit) => [e.folder, e.subject])).toEqual(
      PLACED.slice(0, 8).reverse().map(([folder, minute]) => [folder, `${T} at ${minute}`]),
    );
    expect(res.folders_searched).toEqual(expect.arrayContaining(["INBOX", "Sent", "Drafts", "Archive", SA, SUB]));
    expect(res.folders_searched).not.toContain("Trash");
    expect(res.folders_searched).not.toContain("Junk");
    expect(res.next_cursor).toBeNull();
  });

  test("paging by 3: full pages until the last, no duplicates, no gaps, the same order", async () => {
    const { pages, total } = await allPages({ subject: T }, 3);
    expect(total).toBe(8);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
    const flat = pages.flat().map((e) => e.subject);
    expect(flat).toEqual(PLACED.slice(0, 8).reverse().map(([, m]) => `${T} at ${m}`));
  });

  test("mail arriving between pages does not slip into later pages", async () => {
    const first = await callOk(mcp, "search_emails", { folder: "*", subject: T, limit: 4 });
    await imap.append(SA, plainText({ subject: `${T} at 0` }), [], new Date(Date.UTC(2025, 0, 1))); // older than all, yet new
    const second = await callOk(mcp, "search_emails", { folder: "*", subject: T, limit: 4, cursor: first.next_cursor });
    const seen = [...first.emails, ...second.emails].map((e: Hit) => e.subject);
    expect(seen).toEqual(PLACED.slice(0, 8).reverse().map(([, m]) => `${T} at ${m}`));
    expect(second.next_cursor).toBeNull();
    const [late] = await findBySubject(imap, SA, `${T} at 0`);
    await imap.messageMove(String(late!.uid), "Trash", { uid: true }); // leave the set as the other tests expect it
  });

  test("the text names each message's folder, inside the fence", async () => {
    const res = await call(mcp, "search_emails", { folder: "*", subject: `${T} at 3` });
    expect(textOf(res)).toMatch(new RegExp(`Folders searched: .*${SUB}`));
    expect(textOf(res)).toMatch(new RegExp(`<<<UNTRUSTED-CONTENT-\\w+\\nuid \\d+ in ${SUB.replace("/", "\\/")} \\|`));
  });

  test("cursor errors name the argument", async () => {
    const first = await callOk(mcp, "search_emails", { folder: "*", subject: T, limit: 2 });
    const other = await call(mcp, "search_emails", { folder: "*", subject: `${T} at 1`, cursor: first.next_cursor });
    expect(textOf(other)).toMatch(/cursor: belongs to a search with other criteria/);
    expect(textOf(await call(mcp, "search_emails", { folder: "*", subject: T, cursor: "s1.garbage" }))).toMatch(/cursor: is not a cursor/);
    expect(textOf(await call(mcp, "search_emails", { folder: "*", subject: T, before_uid: 5 }))).toMatch(/before_uid pages one folder/);
    expect(textOf(await call(mcp, "search_emails", { folder: "INBOX", subject: T, cursor: first.next_cursor }))).toMatch(/cursor belongs to folder "\*"/);
  });
});

describe("the new criteria", () => {
  test("has_attachment, larger_than / smaller_than, answered, cc", async () => {
    const folder = `Crit-${T}`;
    await imap.mailboxCreate(folder);
    await imap.append(folder, plainText({ subject: `${T} small`, cc: ["dora@example.org"] }), ["\\Answered"]);
    await imap.append(folder, withAttachment({ subject: `${T} attached` }, new Uint8Array(20_000)), []);
    const subjects = async (args: Record<string, unknown>) =>
      (await callOk(mcp, "search_emails", { folder, ...args })).emails.map((e: Hit) => e.subject).sort();
    expect(await subjects({ has_attachment: true })).toEqual([`${T} attached`]);
    expect(await subjects({ has_attachment: false })).toEqual([`${T} small`]);
    expect(await subjects({ larger_than: 10_000 })).toEqual([`${T} attached`]);
    expect(await subjects({ smaller_than: 10_000 })).toEqual([`${T} small`]);
    expect(await subjects({ answered: true })).toEqual([`${T} small`]);
    expect(await subjects({ answered: false, has_attachment: true })).toEqual([`${T} attached`]);
    expect(await subjects({ cc: "dora@" })).toEqual([`${T} small`]);
    const star = await callOk(mcp, "search_emails", { folder: "*", subject: T, has_attachment: true });
    expect(star.emails.map((e: Hit) => [e.folder, e.subject])).toEqual([[folder, `${T} attached`]]);
  });
});
