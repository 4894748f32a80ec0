// The five read tools through the official SDK client, against the harness Dovecot, compared with
// what was seeded (test/mcp/seed.ts). Folder "ReadTools" is this file's own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { PROVIDERS } from "../../src/mail/providers/presets.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";
import { seedVaried, type Seeded } from "./seed.ts";

const FOLDER = "ReadTools";
let h: Harness;
let srv: TestServer;
let client: Client;
let seeded: Seeded[];
const byName = (n: string) => seeded.find((s) => s.name === n)!;
const messageId = (raw: string) => /^Message-ID: (.*)$/m.exec(raw)![1]!.trim();

beforeAll(async () => {
  h = await getHarness();
  seeded = await seedVaried(h.dovecot, h.dovecot.users.alice, FOLDER);
  srv = await startTestServer();
  const token = await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot));
  client = await connectClient(srv.mcpUrl, token);
}, 30_000);
afterAll(async () => {
  await client?.close();
  await srv?.stop();
});

describe("tools/list", () => {
  test("six read tools with annotations and output schemas", async () => {
    const { tools } = await client.listTools();
    for (const name of ["list_providers", "list_mailboxes", "get_recent_emails", "search_emails", "get_email", "get_attachment"]) {
      const t = tools.find((x) => x.name === name)!;
      expect(t.description!.length).toBeGreaterThan(60);
      expect(t.outputSchema).toBeDefined();
      expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    }
  });
});

describe("list_providers", () => {
  test("lists the presets with exactly the documented fields", async () => {
    const res = await callOk(client, "list_providers");
    expect(res.providers.map((p: { id: string }) => p.id)).toEqual(PROVIDERS.map((p) => p.id));
    expect(Object.keys(res.providers[0]).sort()).toEqual(["app_password_url", "auth", "id", "imap", "name", "notes", "smtp"]);
    // No sign-in provider configured here: every preset is an app-password one (docs/design.md §5).
    expect(new Set(res.providers.map((p: { auth: string }) => p.auth))).toEqual(new Set(["app_password"]));
  });
});

describe("list_mailboxes", () => {
  test("paths, special use, counts, the sub-folder", async () => {
    const { mailboxes } = await callOk(client, "list_mailboxes");
    const get = (p: string) => mailboxes.find((m: { path: string }) => m.path === p);
    expect(get(FOLDER)).toMatchObject({
      name: FOLDER, delimiter: "/", special_use: null, messages: seeded.length,
      unseen: seeded.filter((s) => !s.flags.includes("\\Seen")).length,
    });
    expect(get(`${FOLDER}/Sub`)).toMatchObject({ name: "Sub", messages: 1, unseen: 0 });
    expect(get("Drafts")).toMatchObject({ special_use: "\\Drafts", subscribed: true });
    expect(get("INBOX")).toBeDefined();
  });
});

describe("get_recent_emails", () => {
  const allUids = () => seeded.map((s) => s.uid).sort((a, b) => b - a);

  test("newest first; a summary matches what was seeded", async () => {
    const page = await callOk(client, "get_recent_emails", { folder: FOLDER, limit: 100 });
    expect(page.emails.map((e: { uid: number }) => e.uid)).toEqual(allUids());
    expect(page.next_before_uid).toBeNull();
    const plain = byName("plain");
    expect(page.emails.find((e: { uid: number }) => e.uid === plain.uid)).toEqual({
      uid: plain.uid, folder: FOLDER, message_id: messageId(plain.raw), subject: "Plain text",
      from: { name: "Carol Example", address: "carol@example.net" },
      to: [{ name: null, address: "alice@example.test" }], cc: [],
      date: fx.DEFAULT_DATE.toISOString(), seen: true, flagged: false, has_attachments: false,
      size: Buffer.byteLength(plain.raw), labels: [], sender_check: null, unsubscribe: null,
    });
    const att = page.emails.find((e: { uid: number }) => e.uid === byName("attachment").uid);
    expect(att).toMatchObject({ has_attachments: true, flagged: true, seen: true });
  });

  test("pages with before_uid cover every message once", async () => {
    const got: number[] = [];
    let before: number | null = null;
    for (let i = 0; i < 10; i++) {
      const page: { emails: Array<{ uid: number }>; next_before_uid: number | null } =
        await callOk(client, "get_recent_emails", { folder: FOLDER, limit: 4, ...(before ? { before_uid: before } : {}) });
      got.push(...page.emails.map((e) => e.uid));
      if (page.next_before_uid === null) break;
      expect(page.next_before_uid).toBe(page.emails.at(-1)!.uid);
      before = page.next_before_uid;
    }
    expect(got).toEqual(allUids());
  });

  test("unread_only", async () => {
    const unread = seeded.filter((s) => !s.flags.includes("\\Seen")).map((s) => s.uid).sort((a, b) => b - a);
    const page = await callOk(client, "get_recent_emails", { folder: FOLDER, unread_only: true, limit: 2 });
    expect(page.emails.map((e: { uid: number }) => e.uid)).toEqual(unread.slice(0, 2));
    expect(page.next_before_uid).toBe(unread[1]);
    const rest = await callOk(client, "get_recent_emails", { folder: FOLDER, unread_only: true, before_uid: unread[1] });
    expect(rest.emails.map((e: { uid: number }) => e.uid)).toEqual(unread.slice(2));
    expect(rest.next_before_uid).toBeNull();
  });

  test("default folder INBOX and the sub-folder", async () => {
    expect((await callOk(client, "get_recent_emails")).folder).toBe("INBOX");
    const sub = await callOk(client, "get_recent_emails", { folder: `${FOLDER}/Sub` });
    expect(sub.emails.map((e: { subject: string }) => e.subject)).toEqual(["In the sub-folder"]);
  });

  test("a bad limit is an error naming limit", async () => {
    for (const limit of [0, 101, 2.5]) {
      const res = await call(client, "get_recent_emails", { limit });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toMatch(/limit/);
    }
  });

  test("a missing folder says so and lists the folders", async () => {
    const res = await call(client, "get_recent_emails", { folder: "NoSuchFolder" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/Folder "NoSuchFolder" does not exist.*INBOX.*ReadTools/);
  });
});

describe("search_emails", () => {
  const uidsOf = (res: { emails: Array<{ uid: number }> }) => res.emails.map((e) => e.uid);
  const months = () => seeded.filter((s) => s.name.startsWith("month-")).map((s) => s.uid).sort((a, b) => b - a);

  test("by subject, with total and paging", async () => {
    const first = await callOk(client, "search_emails", { folder: FOLDER, subject: "Monthly note", limit: 4 });
    expect(first.total).toBe(6);
    expect(uidsOf(first)).toEqual(months().slice(0, 4));
    const second = await callOk(client, "search_emails", { folder: FOLDER, subject: "Monthly note", limit: 4, before_uid: first.next_before_uid });
    expect(uidsOf(second)).toEqual(months().slice(4));
    expect(second.total).toBe(6);
    expect(second.next_before_uid).toBeNull();
  });

  test("from, to, text, unread, flagged", async () => {
    expect((await callOk(client, "search_emails", { folder: FOLDER, from: "bob@example.test" })).total).toBe(1); // thread-2
    expect((await callOk(client, "search_emails", { folder: FOLDER, to: "bob@example.test" })).total).toBe(2);
    expect((await callOk(client, "search_emails", { folder: FOLDER, text: "of the thread" })).total).toBe(3);
    expect((await callOk(client, "search_emails", { folder: FOLDER, text: "Viele Grüße" })).emails[0].uid).toBe(byName("utf8").uid);
    expect((await callOk(client, "search_emails", { folder: FOLDER, unread: true })).total).toBe(3);
    expect(uidsOf(await callOk(client, "search_emails", { folder: FOLDER, flagged: true }))).toEqual([byName("attachment").uid]);
  });

  test("since is inclusive, before exclusive (Date header days)", async () => {
    const m3 = fx.spreadOverMonths(6)[2]!.date.toISOString().slice(0, 10);
    const res = await callOk(client, "search_emails", { folder: FOLDER, subject: "Monthly", since: m3, before: "2024-05-01" });
    expect(uidsOf(res)).toEqual([byName("month-4").uid, byName("month-3").uid]);
    const none = await callOk(client, "search_emails", { folder: FOLDER, subject: "Monthly", since: "2024-01-01", before: m3 });
    expect(uidsOf(none)).toEqual([byName("month-2").uid, byName("month-1").uid]);
  });

  test("no criterion: an error naming the criteria", async () => {
    const res = await call(client, "search_emails", { folder: FOLDER });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/from, to, cc, subject, text, since, before, unread, flagged, answered, has_attachment, larger_than, smaller_than/);
  });

  test("a bad date names the argument", async () => {
    for (const since of ["2024-13-01", "March 3", "2024-02-30"]) {
      const res = await call(client, "search_emails", { folder: FOLDER, since });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toMatch(/since/);
    }
  });
});
