// get_attachment for documents, through the official SDK client against the harness Dovecot: a
// real file of each format (test/support/documents.ts), delivered as an attachment, read back as
// fenced text with `format` and `omitted`; zip bombs refused with a reason. Folder "AttachDocs".
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getHarness } from "../support/harness.ts";
import { buildMessage } from "../support/mail-fixtures.ts";
import { attached, mixed, note, withPart } from "../support/attachment-mail.ts";
import * as doc from "../support/documents.ts";
import { call, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";
import { withImap } from "./seed.ts";

const FOLDER = "AttachDocs";
const OOXML = "application/vnd.openxmlformats-officedocument";
const MB = 1024 * 1024;
const INNER = [
  "From: Bob Example <bob@example.net>", "To: carol@example.net", "Subject: The minutes", "Date: Sun, 01 Mar 2026 10:00:00 +0000",
  "Content-Type: text/plain", "", "Minutes of Monday.", "",
].join("\r\n");
const WIDE_ROW = Array.from({ length: 60 }, (_, i) => `c${i + 1}`);

const MESSAGES: Record<string, string> = {
  docx: withPart({ subject: "docx" }, attached(`${OOXML}.wordprocessingml.document`, "report.docx", doc.docx())),
  xlsx: withPart({ subject: "xlsx" }, attached(`${OOXML}.spreadsheetml.sheet`, "costs.xlsx", doc.xlsx({
    Costs: [["Item", "Cost", "When"], ["Tea", 3.5, new Date(Date.UTC(2026, 2, 10))], ["Ok", true]], Wide: [WIDE_ROW], Secret: [["hidden value"]],
  }, { hidden: "Secret" }))),
  xlsxGeneric: withPart({ subject: "xlsx as octet-stream" }, attached("application/octet-stream", "sheet.XLSX", doc.xlsx({ S: [["by name"]] }))),
  pptx: withPart({ subject: "pptx" }, attached(`${OOXML}.presentationml.presentation`, "deck.pptx", doc.pptx([["Welcome", ["point a"]], ["Thanks"]]))),
  odt: withPart({ subject: "odt" }, attached("application/vnd.oasis.opendocument.text", "minutes.odt", doc.odt())),
  ods: withPart({ subject: "ods" }, attached("application/vnd.oasis.opendocument.spreadsheet", "costs.ods", doc.ods())),
  odp: withPart({ subject: "odp" }, attached("application/vnd.oasis.opendocument.presentation", "talk.odp", doc.odp())),
  rtf: withPart({ subject: "rtf" }, attached("application/rtf", "offer.rtf", doc.rtf())),
  csv: withPart({ subject: "csv" }, attached("application/vnd.ms-excel", "rows.csv", doc.CSV)),
  ics: withPart({ subject: "ics" }, attached("text/calendar; method=REQUEST; charset=utf-8", "invite.ics", doc.ICS)),
  vcf: withPart({ subject: "vcf" }, attached("text/vcard", "ann.vcf", doc.VCF)),
  html: withPart({ subject: "html" }, attached("text/html; charset=utf-8", "page.html", "<h1>Agenda</h1><p>Tea</p>")),
  eml: buildMessage({ subject: "Fwd" }, mixed([note("Forwarding."), { headers: ["Content-Type: message/rfc822"], body: INNER }])),
  bomb: withPart({ subject: "bomb" }, attached(`${OOXML}.spreadsheetml.sheet`, "bomb.xlsx", doc.zipBomb(1536 * MB, 512 * 1024, true))),
  ratio: withPart({ subject: "ratio" }, attached(`${OOXML}.spreadsheetml.sheet`, "ratio.xlsx", doc.zipBomb(2 * MB, 2 * MB))),
  liar: withPart({ subject: "liar" }, attached(`${OOXML}.spreadsheetml.sheet`, "liar.xlsx", doc.zipBomb(100))),
  notZip: withPart({ subject: "not a zip" }, attached(`${OOXML}.wordprocessingml.document`, "fake.docx", "just text, no zip")),
  wrongZip: withPart({ subject: "xlsx named docx" }, attached(`${OOXML}.wordprocessingml.document`, "wrong.docx", doc.xlsx({ S: [["x"]] }))),
};

let srv: TestServer;
let client: Client;
const uids: Record<string, number> = {};

beforeAll(async () => {
  const h = await getHarness();
  await withImap(h.dovecot, h.dovecot.users.alice, async (c) => {
    await c.mailboxCreate(FOLDER);
    for (const [name, raw] of Object.entries(MESSAGES)) {
      const res = await c.append(FOLDER, raw, []);
      if (!res || !res.uid) throw new Error(`append ${name} failed`);
      uids[name] = res.uid;
    }
  });
  srv = await startTestServer();
  client = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(h.dovecot.users.alice, h.dovecot)));
}, 30_000);
afterAll(async () => {
  await client?.close();
  await srv?.stop();
});

const read = async (name: string, extra: Record<string, unknown> = {}) => {
  const res = await call(client, "get_attachment", { folder: FOLDER, uid: uids[name], part: "2", ...extra });
  if (res.isError) throw new Error(textOf(res));
  return { ...(res.structuredContent as any), shown: textOf(res) };
};

/** The text sits inside the untrusted-content fence of the text block, never outside it. */
function expectFenced(shown: string, inside: string): void {
  const open = shown.indexOf("<<<UNTRUSTED-CONTENT-");
  const close = shown.lastIndexOf("UNTRUSTED-CONTENT-");
  const at = shown.indexOf(inside);
  expect(open).toBeGreaterThanOrEqual(0);
  expect(at).toBeGreaterThan(open);
  expect(at).toBeLessThan(close);
}

describe("get_attachment: documents as text", () => {
  test("docx: headings, lists, a table; no deleted text, no doubled text box", async () => {
    const a = await read("docx");
    expect(a).toMatchObject({ kind: "document", format: "docx", content: "text", omitted: null, truncated: false });
    expect(a.text).toContain("# Quarterly report\n\n# Summary\nRevenue grew & costs fell.\tTabbed\n- First point\n  - Sub point");
    expect(a.text).toContain("| Item | Cost |\n| Tea | 3 \\| 4 |");
    expect(a.text).toContain("## Details\nThe end.");
    expect(a.text).not.toContain("DELETED");
    expect(a.text.split("Boxed note").length).toBe(2);
    expectFenced(a.shown, "Quarterly report");
  });

  test("xlsx: one table per sheet, dates and booleans, a hidden sheet marked, columns past 50 left out and said", async () => {
    const a = await read("xlsx");
    expect(a).toMatchObject({ kind: "document", format: "xlsx", content: "text" });
    expect(a.text).toContain("## Sheet 1: Costs\n| row | A | B | C |\n|---|---|---|---|\n| 1 | Item | Cost | When |\n| 2 | Tea | 3.5 | 2026-03-10 |\n| 3 | Ok | TRUE |");
    expect(a.text).toContain("## Sheet 2: Wide\n");
    expect(a.text).toContain("| c50 |");
    expect(a.text).not.toContain("c51");
    expect(a.text).toContain("## Sheet 3: Secret (hidden)");
    expect(a.omitted).toBe("Sheet 2: Wide: columns AY to BH not shown (50 columns at most)");
    expectFenced(a.shown, "Left out: Sheet 2: Wide");
  });

  test("a workbook sent as application/octet-stream is read by its name", async () => {
    expect(await read("xlsxGeneric")).toMatchObject({ kind: "document", format: "xlsx", content: "text" });
  });

  test("xlsx: rows past max_chars are counted and said in omitted, the answer stays within max_chars", async () => {
    const a = await read("xlsx", { max_chars: 20 });
    expect(a.text.length).toBeLessThanOrEqual(20);
    expect(a.truncated).toBe(true);
    expect(a.omitted).toMatch(/Sheet 1: Costs: 1 more non-empty row\(s\) not shown/);
    expect(a.omitted).toMatch(/Sheet 3: Secret \(hidden\): not shown/);
  });

  test("pptx: slides in the presentation's order, with their numbers", async () => {
    const a = await read("pptx");
    expect(a).toMatchObject({ format: "pptx", content: "text", text: "## Slide 1\nWelcome\n- point a\n\n## Slide 2\nThanks" });
  });

  test("odt, ods, odp: headings and lists, a sheet with repeated rows and cells, slides without speaker notes", async () => {
    const odt = await read("odt");
    expect(odt).toMatchObject({ format: "odt", text: "# Minutes\nPresent:  Ann, Bob\n- Budget\n  - Travel\n\n## Decisions\n\n| Who | What |" });
    const ods = await read("ods");
    expect(ods).toMatchObject({ format: "ods", text: "## Sheet 1: Costs\n| row | A | B | C |\n|---|---|---|---|\n| 1 | Item | Cost |\n| 5 | Tea | 3 | 3 |" });
    const odp = await read("odp");
    expect(odp).toMatchObject({ format: "odp", text: "## Slide 1: Welcome\nHello all\n\n## Slide 2: Plan\n- Ship it" });
  });

  test("rtf: paragraphs, code page and Unicode characters; font tables, document info and pictures skipped", async () => {
    expect(await read("rtf")).toMatchObject({ format: "rtf", text: "Offer\nPrice: 12 €, valid → now.\nLine\ntwo" });
  });

  test("csv (sent as application/vnd.ms-excel): a table, semicolons and quoted newlines understood", async () => {
    const a = await read("csv");
    expect(a).toMatchObject({ format: "csv", text: "## Table\n| row | A | B | C |\n|---|---|---|---|\n| 1 | name | amount | note |\n| 2 | Tea | 3 | with ; semicolon |\n| 3 | Cake | 4,50 | two lines |" });
  });

  test("ics and vcf: readable lines; time zones skipped, unknown properties named in omitted", async () => {
    const ics = await read("ics");
    expect(ics.format).toBe("ics");
    expect(ics.text).toContain("## Event\nUID: abc@example.com\nSummary: Budget review, Q3\nStart: 2026-03-10 14:00:00 (Europe/Berlin)");
    expect(ics.text).toContain("Attendee: Bob <bob@example.net> (needs-action, req-participant)\nDescription: Bring the numbers.\nAnd tea.Folded on.");
    expect(ics.omitted).toBe("properties without a readable form here: X-MS-OLK-SENDER");
    const vcf = await read("vcf");
    expect(vcf).toMatchObject({ format: "vcf", omitted: "properties without a readable form here: PHOTO" });
    expect(vcf.text).toContain("Name: Ann Lee\nStructured name: Lee, Ann\nOrganization: Example Ltd\nPhone: +49 170 000000 (cell)");
  });

  test("html and attached messages say their format", async () => {
    expect(await read("html")).toMatchObject({ kind: "text", format: "html", content: "text" });
    const eml = await read("eml");
    expect(eml).toMatchObject({ kind: "message", format: "message", content: "text" });
    expect(eml.text).toContain("Minutes of Monday.");
    expectFenced(eml.shown, "The minutes");
  });
});

describe("get_attachment: documents refused with a reason", () => {
  test("a 1 KB zip whose sheet says it expands past 1 GB", async () => {
    expect(MESSAGES.bomb!.length).toBeLessThan(2048);
    const a = await read("bomb");
    expect(a).toMatchObject({ kind: "document", format: null, content: "none", text: null });
    expect(a.note).toBe('The Excel workbook was not read: it looks built to exhaust memory (a zip bomb): its entry "xl/worksheets/sheet1.xml" says it expands to 1536 MB; it was not opened.');
  });

  test("an entry expanding 1000 times, and one expanding past what it declares", async () => {
    expect((await read("ratio")).note).toContain("expands 1018 times, more than the 100 times this server allows");
    expect((await read("liar")).note).toContain("expands past the 100 bytes it declares");
  });

  test("a .docx that is not a ZIP, and a ZIP that is not a Word document", async () => {
    expect((await read("notZip")).note).toBe("The Word document was not read: it is not a readable ZIP file (damaged, or not the format its name says).");
    expect((await read("wrongZip")).note).toBe("The Word document was not read: it is a ZIP file but not a Word document (it has no word/document.xml).");
  });
});
