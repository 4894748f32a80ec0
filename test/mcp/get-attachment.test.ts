// get_attachment through the official SDK client against the harness Dovecot: each kind of part,
// compared with what was delivered. Folder "Attach" is this file's own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getHarness, type Harness } from "../support/harness.ts";
import { buildMessage } from "../support/mail-fixtures.ts";
import { attached, JPEG_HEAD, mixed, note, PNG_1X1, withPart } from "../support/attachment-mail.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { ODD_MAIL } from "../support/odd-mail.ts";
import { tinyPdf } from "../support/pdf.ts";
import { issueTestToken, testAccount } from "../support/token.ts";
import { flagsOf, withImap } from "./seed.ts";

const FOLDER = "Attach";
const PDF_PAGES = [["Invoice 2024-117", "Total: 42.00 EUR (paid)"], ["Second page (terms)"]];
const CSV = "name,amount\r\nTea,3\r\nCake,4.50\r\n";
const INNER = [
  "From: Bob Example <bob@example.net>", "To: carol@example.net", "Subject: The minutes", "Date: Sun, 01 Mar 2026 10:00:00 +0000",
  'Content-Type: multipart/mixed; boundary="in"', "", "--in", "Content-Type: text/plain", "", "Minutes of Monday.",
  "--in", 'Content-Type: text/csv; name="budget.csv"', 'Content-Disposition: attachment; filename="budget.csv"', "", "a,b", "--in--", "",
].join("\r\n");
const BIG_IMAGE = Buffer.concat([PNG_1X1, Buffer.alloc(1024 * 1024 + 10, 7)]);

const MESSAGES: Record<string, string> = {
  latin1: withPart({ subject: "latin1" }, { ...attached("text/plain; charset=iso-8859-1", "gruss.txt", "Gr=FC=DFe aus K=F6ln=0D=0A", "quoted-printable") }),
  csv: withPart({ subject: "csv" }, attached("text/csv", "table.csv", CSV)),
  html: withPart({ subject: "html" }, attached("text/html; charset=utf-8", "page.html", "<h1>Agenda</h1><ul><li>Tea</li><li>Cake</li></ul>")),
  pdf: withPart({ subject: "pdf" }, attached("application/pdf", "invoice.pdf", tinyPdf(PDF_PAGES))),
  pdfGeneric: withPart({ subject: "pdf as octet-stream" }, attached("application/octet-stream", "scan.PDF", tinyPdf([["Generic type, real PDF"]]))),
  notPdf: withPart({ subject: "not a pdf" }, attached("application/pdf", "fake.pdf", "just some text, no header")),
  png: withPart({ subject: "png" }, attached("image/png", "dot.png", PNG_1X1)),
  jpegAsPng: withPart({ subject: "jpeg as png" }, attached("image/png", "photo.png", JPEG_HEAD)),
  notImage: withPart({ subject: "not an image" }, attached("image/gif", "x.gif", "GIF? no, text")),
  bigImage: withPart({ subject: "big image" }, attached("image/png", "big.png", BIG_IMAGE)),
  zip: withPart({ subject: "zip" }, attached("application/zip", "archive.zip", Buffer.from("PK\x03\x04 rest of a zip", "latin1"))),
  forward: buildMessage({ subject: "Fwd: minutes" }, mixed([note("Forwarding."), { headers: ["Content-Type: message/rfc822"], body: INNER }])),
  wholePdf: buildMessage({ subject: "whole pdf" }, attached("application/pdf", "only.pdf", tinyPdf([["The whole body is a PDF"]]))),
  long: withPart({ subject: "long" }, attached("text/plain; charset=utf-8", "long.txt", "x".repeat(30_000))),
  ics: withPart({ subject: "invite" }, attached("application/ics", "invite.ics", "BEGIN:VCALENDAR\r\nSUMMARY:Tea\r\nEND:VCALENDAR\r\n")),
  forwardTop: ODD_MAIL.forwardTop,
  digest: ODD_MAIL.digest,
};

let h: Harness;
let srv: TestServer;
let client: Client;
const uids: Record<string, number> = {};

beforeAll(async () => {
  h = await getHarness();
  await withImap(h.dovecot, h.dovecot.users.alice, async (c) => {
    await c.mailboxCreate(FOLDER);
    for (const [name, raw] of Object.entries(MESSAGES)) {
      const res = await c.append(FOLDER, raw, []); // unread: get_attachment must leave them so
      if (!res || !res.uid) throw new Error(`append ${name} failed`);
      uids[name] = res.uid;
    }
  });
  srv = await startTestServer();
  const token = await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot));
  client = await connectClient(srv.mcpUrl, token);
}, 30_000);
afterAll(async () => {
  await client?.close();
  await srv?.stop();
});

const get = (name: string, part = "2", extra: Record<string, unknown> = {}) =>
  call(client, "get_attachment", { folder: FOLDER, uid: uids[name], part, ...extra });
const read = async (name: string, part = "2", extra: Record<string, unknown> = {}) => {
  const res = await get(name, part, extra);
  if (res.isError) throw new Error(textOf(res));
  return { ...(res.structuredContent as any), res };
};

describe("get_attachment: text", () => {
  test("a Latin-1 quoted-printable text part, charset-decoded, fenced in the text block", async () => {
    const a = await read("latin1");
    expect(a).toMatchObject({ part: "2", filename: "gruss.txt", content_type: "text/plain", kind: "text", content: "text", text: "Grüße aus Köln", truncated: false, note: null });
    const text = textOf(a.res);
    const markers = [...text.matchAll(/UNTRUSTED-CONTENT-([0-9a-f]{16})/g)].map((m) => m[1]);
    expect(markers.length).toBe(3);
    expect(text.indexOf("Grüße aus Köln")).toBeGreaterThan(text.indexOf(`<<<UNTRUSTED-CONTENT-${markers[0]}`));
    expect(text.indexOf("gruss.txt")).toBeGreaterThan(text.indexOf(`<<<UNTRUSTED-CONTENT-${markers[0]}`));
  });

  test("CSV comes back as a table (a document); HTML as text", async () => {
    expect(await read("csv")).toMatchObject({ kind: "document", format: "csv", text: "## Table\n| row | A | B |\n|---|---|---|\n| 1 | name | amount |\n| 2 | Tea | 3 |\n| 3 | Cake | 4.50 |" });
    const html = await read("html");
    expect(html).toMatchObject({ kind: "text", content: "text" });
    expect(html.text).toContain("Agenda");
    expect(html.text).not.toContain("<");
  });

  test("cut at max_chars with truncated: true", async () => {
    const a = await read("long");
    expect(a.text.length).toBe(20_000);
    expect(a.truncated).toBe(true);
    expect(textOf(a.res)).toContain("larger max_chars");
    const small = await read("long", "2", { max_chars: 5 });
    expect(small).toMatchObject({ text: "xxxxx", truncated: true, size: 30_000 });
  });

  test("an attached email is shown as get_email shows one; its own attachments are listed and readable", async () => {
    const a = await read("forward");
    expect(a).toMatchObject({ kind: "message", content: "text", content_type: "message/rfc822", filename: "The minutes.eml" });
    expect(a.text).toContain("---------- Attached message (part 2) ----------");
    expect(a.text).toContain("From: Bob Example <bob@example.net>");
    expect(a.text).toContain("Subject: The minutes");
    expect(a.text).toContain("Minutes of Monday.");
    expect(a.attachments).toEqual([{ part: "2.2", filename: "budget.csv", content_type: "text/csv", size: 3 }]);
    expect((await read("forward", "2.2")).text).toBe("## Table\n| row | A | B |\n|---|---|---|\n| 1 | a | b |");
  });
});

describe("get_attachment: part numbers as RFC 9051 §6.4.5 gives them", () => {
  test("a message whose whole body is a forward: part 1 is the forwarded message, 1.1 its body", async () => {
    const a = await read("forwardTop", "1");
    expect(a).toMatchObject({ kind: "message", filename: "minutes.eml" });
    expect(a.text).toBe("---------- Attached message (part 1) ----------\nFrom: Bob Example <bob@example.net>\nDate: Sun, 01 Mar 2026 10:00:00 +0000\nSubject: minutes\nTo: ann@example.org\n\nThe inner minutes text.");
    expect((await read("forwardTop", "1.1")).text).toBe("The inner minutes text.");
  });

  test("digest entries (message/rfc822 by default inside multipart/digest) are 2.1 and 2.2", async () => {
    expect((await read("digest", "2.1")).text).toContain("First message body.");
    expect((await read("digest", "2.2")).text).toContain("Second message body.");
    const container = await get("digest", "2");
    expect(container.isError).toBe(true); // a multipart container has no content of its own
    expect(textOf(container)).toContain("part 2.1: message/rfc822");
  });

  test("a calendar sent as application/ics is read as a calendar document", async () => {
    expect(await read("ics")).toMatchObject({ kind: "document", format: "ics", text: "Summary: Tea" });
  });
});

describe("get_attachment: PDF", () => {
  test("the extracted text is what the PDF holds, page by page", async () => {
    const a = await read("pdf");
    expect(a).toMatchObject({ kind: "pdf", content: "text", pages: 2, truncated: false, filename: "invoice.pdf", note: null });
    expect(a.text).toBe("Invoice 2024-117\nTotal: 42.00 EUR (paid)\n\nSecond page (terms)");
    expect(a.size).toBe(tinyPdf(PDF_PAGES).length);
    expect(textOf(a.res)).toContain("PDF, 2 page(s)");
  });

  test("a PDF sent as application/octet-stream is recognised by its name and checked by its bytes", async () => {
    expect(await read("pdfGeneric")).toMatchObject({ kind: "pdf", content: "text", text: "Generic type, real PDF", pages: 1 });
  });

  test("a message whose whole body is a PDF: part 1", async () => {
    expect(await read("wholePdf", "1")).toMatchObject({ kind: "pdf", text: "The whole body is a PDF", filename: "only.pdf" });
  });

  test("a part declared PDF that is not one: no text, and why", async () => {
    const a = await read("notPdf");
    expect(a).toMatchObject({ kind: "pdf", content: "none", text: null });
    expect(a.note).toContain("not a PDF");
  });
});

describe("get_attachment: images", () => {
  test("a PNG comes back as MCP image content, byte for byte", async () => {
    const a = await read("png");
    expect(a).toMatchObject({ kind: "image", content: "image", image_type: "image/png", size: PNG_1X1.length, text: null, note: null });
    const image = a.res.content.find((c: { type: string }) => c.type === "image");
    expect(image).toEqual({ type: "image", mimeType: "image/png", data: PNG_1X1.toString("base64") });
  });

  test("the type comes from the bytes, not from the sender's Content-Type", async () => {
    const a = await read("jpegAsPng");
    expect(a).toMatchObject({ content: "image", image_type: "image/jpeg" });
    expect(a.res.content.find((c: { type: string }) => c.type === "image")).toMatchObject({ mimeType: "image/jpeg", data: JPEG_HEAD.toString("base64") });
    expect(a.note).toContain("returned as image/jpeg");
    const fake = await read("notImage");
    expect(fake).toMatchObject({ kind: "image", content: "none", image_type: null });
    expect(fake.res.content.some((c: { type: string }) => c.type === "image")).toBe(false);
  });

  test("an image over 1 MB: metadata and why, no image", async () => {
    const a = await read("bigImage");
    expect(a).toMatchObject({ kind: "image", content: "none", filename: "big.png", content_type: "image/png" });
    expect(a.note).toMatch(/more than the 1\.0 MB this tool reads/);
    expect(a.res.content.some((c: { type: string }) => c.type === "image")).toBe(false);
    expect(textOf(a.res)).toContain("Its content is not returned:");
  });
});

describe("get_attachment: anything else, and errors", () => {
  test("an unknown type: metadata and a plain statement why", async () => {
    const a = await read("zip");
    expect(a).toMatchObject({ kind: "other", content: "none", text: null, filename: "archive.zip", content_type: "application/zip" });
    expect(Math.abs(a.size - 18)).toBeLessThanOrEqual(2); // not fetched: estimated from the encoded size
    expect(a.note).toContain("its content is not returned");
  });

  test("an unknown part lists the parts that exist", async () => {
    const res = await get("pdf", "7");
    expect(res.isError).toBe(true);
    const text = textOf(res);
    expect(text).toContain('has no part "7"');
    expect(text).toContain("part 1: text/plain");
    expect(text).toContain("part 2: application/pdf, invoice.pdf");
    expect(text).toMatch(/<<<UNTRUSTED-CONTENT-[0-9a-f]{16}\n/);
  });

  test("an unknown uid, a bad part number", async () => {
    const res = await call(client, "get_attachment", { folder: FOLDER, uid: 999_999, part: "2" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/No message with uid 999999 in "Attach"/);
    const bad = await call(client, "get_attachment", { folder: FOLDER, uid: uids.pdf, part: "2.0" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toBe('Invalid arguments for get_attachment: part must be a part number such as "2" or "2.1".');
  });

  test("\\Seen is unchanged after every read", async () => {
    for (const name of Object.keys(MESSAGES)) {
      expect((await flagsOf(h.dovecot, h.dovecot.users.alice, FOLDER, uids[name]!)).has("\\Seen")).toBe(false);
    }
  });

  test("tools/list: read-only annotations and an output schema", async () => {
    const { tools } = await client.listTools();
    const t = tools.find((x) => x.name === "get_attachment")!;
    expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(t.outputSchema?.properties).toHaveProperty("content");
    expect(t.inputSchema.required).toEqual(["uid", "part"]);
  });
});
