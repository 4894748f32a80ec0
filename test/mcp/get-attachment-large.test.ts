// get_attachment on large parts, through a relay that counts what the mail server sends: only the
// part asked for is fetched, never the whole message; a part over its limit is not fetched at all.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { encodedCap, LIMITS } from "../../src/mail/read/attachment/limits.ts";
import { attached, base64Lines, mixed, note, PNG_1X1 } from "../support/attachment-mail.ts";
import { startFakeImap } from "../support/fake-imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { startLatencyRelay, type LatencyRelay } from "../support/latency-relay.ts";
import { buildMessage } from "../support/mail-fixtures.ts";
import { call, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { tinyPdf } from "../support/pdf.ts";
import { issueTestToken, testAccount } from "../support/token.ts";
import { flagsOf, withImap } from "./seed.ts";

const FOLDER = "AttachLarge";
const MB = 1024 * 1024;
const HUGE_PDF = tinyPdf([["too big to read"]], 12 * MB); // over the 10 MB PDF limit
const BIG_PDF = tinyPdf([["Nine megabytes of PDF, still read"]], 9 * MB); // under it
const IMAGE = Buffer.concat([PNG_1X1, Buffer.alloc(600 * 1024, 3)]); // a PNG signature and 600 KB
const LONG_TEXT = "abcdefghij".repeat(300_000); // 3 MB: more than the 2 MB read of a text part

// One message: a note (1), the 12 MB PDF (2), a small CSV (3), the image (4), the long text (5).
const MIXED = buildMessage({ subject: "everything" }, mixed([
  note("Four attachments."), attached("application/pdf", "huge.pdf", HUGE_PDF), attached("text/csv", "small.csv", "a,b\r\n1,2\r\n"),
  attached("image/png", "photo.png", IMAGE), attached("text/plain; charset=utf-8", "long.txt", LONG_TEXT),
]));
const PDF_ONLY = buildMessage({ subject: "big pdf" }, mixed([note("The PDF."), attached("application/pdf", "big.pdf", BIG_PDF)]));

let h: Harness;
let srv: TestServer;
let relay: LatencyRelay;
let client: Client;
const uids: Record<string, number> = {};

beforeAll(async () => {
  h = await getHarness();
  await withImap(h.dovecot, h.dovecot.users.alice, async (c) => {
    await c.mailboxCreate(FOLDER);
    for (const [name, raw] of [["mixed", MIXED], ["pdf", PDF_ONLY]] as const) uids[name] = (await c.append(FOLDER, raw, []) as { uid: number }).uid;
  });
  relay = await startLatencyRelay({ host: h.dovecot.host, port: h.dovecot.port }, 0);
  srv = await startTestServer();
  const token = await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, { host: "localhost", port: relay.port }));
  client = await connectClient(srv.mcpUrl, token);
  await call(client, "list_mailboxes"); // log in first, so each test counts only its own bytes
}, 60_000);
afterAll(async () => {
  await client?.close();
  await srv?.stop();
  await relay?.stop();
});

/** The result and the bytes the mail server sent for it. */
async function measured(name: string, part: string, extra: Record<string, unknown> = {}) {
  const before = relay.received;
  const res = await call(client, "get_attachment", { folder: FOLDER, uid: uids[name], part, ...extra });
  if (res.isError) throw new Error(textOf(res));
  return { a: res.structuredContent as any, res, bytes: relay.received - before };
}

describe("get_attachment on large messages", () => {
  test("the message really is large", () => expect(MIXED.length).toBeGreaterThan(20 * MB));

  test("a PDF over 10 MB: metadata and why; none of it is fetched", async () => {
    const { a, bytes } = await measured("mixed", "2");
    expect(a).toMatchObject({ kind: "pdf", content: "none", filename: "huge.pdf", text: null });
    expect(a.note).toMatch(/^The PDF is 12\.\d MB, more than the 10\.0 MB this tool reads/);
    expect(bytes).toBeLessThan(16 * 1024);
  });

  test("a small attachment of a 21 MB message costs its own bytes, not the message's", async () => {
    const { a, bytes } = await measured("mixed", "3");
    expect(a.text).toBe("## Table\n| row | A | B |\n|---|---|---|\n| 1 | a | b |\n| 2 | 1 | 2 |");
    expect(bytes).toBeLessThan(16 * 1024);
  });

  test("a 600 KB image: fetched alone, returned byte for byte", async () => {
    const { a, res, bytes } = await measured("mixed", "4");
    expect(a).toMatchObject({ content: "image", image_type: "image/png", size: IMAGE.length });
    expect(res.content.find((c) => c.type === "image")).toMatchObject({ data: IMAGE.toString("base64") });
    expect(bytes).toBeLessThan(IMAGE.length * 1.4 + 16 * 1024);
  });

  test("a 3 MB text: its first 2 MB are read, the text is cut and says so", async () => {
    const { a, bytes } = await measured("mixed", "5", { max_chars: 200_000 });
    expect(a).toMatchObject({ content: "text", truncated: true });
    expect(a.text).toBe(LONG_TEXT.slice(0, 200_000));
    expect(a.note).toBe("Only its first 2.0 MB were read.");
    expect(bytes).toBeLessThan(LIMITS.text + 64 * 1024);
    expect(bytes).toBeGreaterThan(LIMITS.text);
  });

  test("a 9 MB PDF is fetched (below the IMAP literal limit) and read", async () => {
    const { a, bytes } = await measured("pdf", "2");
    expect(a).toMatchObject({ kind: "pdf", content: "text", text: "Nine megabytes of PDF, still read", pages: 1, size: BIG_PDF.length });
    expect(bytes).toBeLessThan(BIG_PDF.length * 1.4 + 64 * 1024);
  });

  test("nothing was marked read", async () => {
    for (const uid of Object.values(uids)) expect((await flagsOf(h.dovecot, h.dovecot.users.alice, FOLDER, uid)).has("\\Seen")).toBe(false);
  });
});

describe("a server that understates a part's size", () => {
  test("an image it calls 100 octets but that is 3 MB: no more than the cap is read, and nothing is returned", async () => {
    const content = base64Lines(Buffer.concat([PNG_1X1, Buffer.alloc(2 * MB, 5)])); // ~2.7 MB of base64
    const script: { part: { declared: number; content: string }; partBytesSent?: number } = { part: { declared: 100, content } };
    const fake = await startFakeImap(() => script);
    const token = await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, fake));
    const liar = await connectClient(srv.mcpUrl, token);
    try {
      const res = await call(liar, "get_attachment", { uid: 3, part: "2" });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toMatchObject({ kind: "image", content: "none", filename: "x.png" });
      expect((res.structuredContent as { note: string }).note).toBe("The image is more than the 1.0 MB this tool reads, so its content is not returned. Open it in a mail program.");
      expect(res.content.some((c) => c.type === "image")).toBe(false);
      expect(script.partBytesSent).toBe(encodedCap(LIMITS.image, "base64") + 1);
    } finally {
      await liar.close();
      await fake.stop();
    }
  });
});
