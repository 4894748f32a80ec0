// A 5,000-message folder: paging stays exact and cheap (sequence ranges from the end, ESEARCH
// counts), unread_only and search page correctly. Folder "Large5000" (alice) is this file's own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getHarness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

const FOLDER = "Large5000";
const N = 5000;
let srv: TestServer;
let client: Client;
type Page = { emails: Array<{ uid: number; subject: string; seen: boolean }>; next_before_uid: number | null; total?: number };
const uids = (p: Page) => p.emails.map((e) => e.uid);
const range = (hi: number, lo: number) => Array.from({ length: hi - lo + 1 }, (_, i) => hi - i);

beforeAll(async () => {
  const h = await getHarness();
  // Message i (uid i+1) is unread when uid % 10 === 0.
  await h.dovecot.seedBulk("alice", FOLDER, N, (i) => ({
    raw: fx.plainText({ subject: `Large ${i + 1}`, date: new Date(Date.UTC(2023, 0, 1) + i * 3_600_000) }, `n=${i + 1}\n`),
    flags: (i + 1) % 10 === 0 ? [] : ["\\Seen"],
  }));
  srv = await startTestServer();
  client = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot)));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await srv?.stop();
});

const recent = (args: Record<string, unknown>) => callOk<Page>(client, "get_recent_emails", { folder: FOLDER, ...args });

describe("get_recent_emails on 5,000 messages", () => {
  test("first page, then pages by before_uid without overlap", async () => {
    const p1 = await recent({ limit: 100 });
    expect(uids(p1)).toEqual(range(5000, 4901));
    expect(p1.emails[0]!.subject).toBe("Large 5000");
    const p2 = await recent({ limit: 100, before_uid: p1.next_before_uid });
    expect(uids(p2)).toEqual(range(4900, 4801));
    expect(p2.next_before_uid).toBe(4801);
  });

  test("any before_uid, and the last page", async () => {
    expect(uids(await recent({ limit: 20, before_uid: 2500 }))).toEqual(range(2499, 2480));
    const last = await recent({ limit: 100, before_uid: 50 });
    expect(uids(last)).toEqual(range(49, 1));
    expect(last.next_before_uid).toBeNull();
    expect(uids(await recent({ before_uid: 1 }))).toEqual([]);
  });

  test("unread_only pages through the unread messages only", async () => {
    const p1 = await recent({ unread_only: true, limit: 20 });
    expect(uids(p1)).toEqual(range(5000, 4810).filter((u) => u % 10 === 0));
    expect(p1.emails.every((e) => !e.seen)).toBe(true);
    const p2 = await recent({ unread_only: true, limit: 20, before_uid: p1.next_before_uid });
    expect(uids(p2)[0]).toBe(4800);
  });
});

describe("search_emails on 5,000 messages", () => {
  test("total counts every match; one page is returned", async () => {
    const res = await callOk<Page>(client, "search_emails", { folder: FOLDER, subject: "Large 1" });
    expect(res.total).toBe(1 + 10 + 100 + 1000); // 1, 10-19, 100-199, 1000-1999
    expect(uids(res)).toEqual(range(1999, 1980));
    const next = await callOk<Page>(client, "search_emails", { folder: FOLDER, subject: "Large 1", before_uid: res.next_before_uid });
    expect(uids(next)).toEqual(range(1979, 1960));
  });

  test("unread search over the whole folder", async () => {
    const res = await callOk<Page>(client, "search_emails", { folder: FOLDER, unread: true, limit: 5 });
    expect(res.total).toBe(N / 10);
    expect(uids(res)).toEqual([5000, 4990, 4980, 4970, 4960]);
  });
});
