// get_email through the official SDK client against the harness Dovecot, compared with what was
// seeded (test/mcp/seed.ts). Folder "ReadEmail" is this file's own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getHarness, type Harness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";
import { flagsOf, LONG_BODY, seedVaried, type Seeded } from "./seed.ts";

const FOLDER = "ReadEmail";
let h: Harness;
let srv: TestServer;
let client: Client;
let seeded: Seeded[];
const byName = (n: string) => seeded.find((s) => s.name === n)!;

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

describe("get_email", () => {
  const read = (name: string, extra: Record<string, unknown> = {}) =>
    callOk(client, "get_email", { folder: FOLDER, uid: byName(name).uid, ...extra });

  test("plain text, with the summary fields", async () => {
    const e = await read("plain");
    expect(e.body_text).toBe("Hello Alice,\nthis is a plain text message.");
    expect(e).toMatchObject({ subject: "Plain text", truncated: false, attachments: [], references: [], in_reply_to: null, reply_to: [] });
  });

  test("HTML only: converted to readable text", async () => {
    const e = await read("html");
    expect(e.body_text).toContain("Hello Alice");
    expect(e.body_text).not.toContain("<");
  });

  test("multipart/alternative: the text part", async () => {
    expect((await read("alternative")).body_text).toBe("Hello Alice (text)");
  });

  test("attachment listed with part, name, type and decoded size", async () => {
    const e = await read("attachment");
    expect(e.body_text).toBe("See the attached file.");
    expect(e.attachments).toEqual([{ part: "2", filename: fx.ATTACHMENT_NAME, content_type: "application/octet-stream", size: 1024 }]);
    expect(e.has_attachments).toBe(true);
  });

  test("UTF-8 headers decoded", async () => {
    const e = await read("utf8");
    expect(e.subject).toBe(fx.UTF8_SUBJECT);
    expect(e.from).toEqual({ name: fx.UTF8_NAME, address: "zoe@example.net" });
    expect(e.body_text).toContain("Viele Grüße");
  });

  test("threading headers: message_id, in_reply_to, references", async () => {
    const e = await read("thread-3");
    expect(e.message_id).toBe("<thread-t1-3@example.test>");
    expect(e.in_reply_to).toBe("<thread-t1-2@example.test>");
    expect(e.references).toEqual(["<thread-t1-1@example.test>", "<thread-t1-2@example.test>"]);
  });

  test("reply_to, with a missing display name as null", async () => {
    expect((await read("reply-to")).reply_to).toEqual([
      { name: "Help Desk", address: "help@example.net" }, { name: null, address: "plain@example.net" },
    ]);
  });

  test("does not set \\Seen", async () => {
    const { alice } = h.dovecot.users;
    expect((await flagsOf(h.dovecot, alice, FOLDER, byName("html").uid)).has("\\Seen")).toBe(false);
    expect((await read("html")).seen).toBe(false);
    expect((await flagsOf(h.dovecot, alice, FOLDER, byName("html").uid)).has("\\Seen")).toBe(false);
  });

  test("max_chars window and truncated", async () => {
    const full = await read("long", { max_chars: 200_000 });
    expect(full.truncated).toBe(false);
    expect(full.body_text).toBe(LONG_BODY.trimEnd());
    const def = await read("long");
    expect(def.body_text.length).toBe(20_000);
    expect(def.truncated).toBe(true);
    const small = await read("long", { max_chars: 10 });
    expect(small.body_text).toBe("line 0000 ");
    const bad = await call(client, "get_email", { folder: FOLDER, uid: 1, max_chars: 200_001 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/max_chars/);
  });

  test("invisible and control characters are stripped", async () => {
    const e = await read("sneaky");
    expect(e.body_text).toBe("Paypal evil ok done end");
    expect(e.subject).toBe("Sneaky subject");
  });

  test("the text block fences the body with a fresh random marker", async () => {
    const uid = byName("plain").uid;
    const markers = await Promise.all([1, 2].map(async () => {
      const text = textOf(await call(client, "get_email", { folder: FOLDER, uid }));
      const found = [...text.matchAll(/UNTRUSTED-CONTENT-([0-9a-f]{16})/g)].map((m) => m[1]);
      expect(found.length).toBe(3);
      expect(new Set(found).size).toBe(1);
      expect(text).toContain("this is a plain text message.");
      return found[0];
    }));
    expect(markers[0]).not.toBe(markers[1]);
  });

  test("a missing uid says so", async () => {
    const res = await call(client, "get_email", { folder: FOLDER, uid: 999_999 });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/No message with uid 999999 in "ReadEmail".*newest has uid/);
  });
});
