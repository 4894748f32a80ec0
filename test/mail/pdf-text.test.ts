// PDF text extraction in its worker thread: the text comes back page by page, damaged or fake PDFs
// say so, and a job over its budget is abandoned (its worker terminated) without harming the next.
import { afterAll, describe, expect, test } from "bun:test";
import { PdfExtractor } from "../../src/mail/content/pdf-text/extract.ts";
import { imageType, isPdf } from "../../src/mail/read/attachment/sniff.ts";
import { encodedCap, fetchCap, MAX_FETCH } from "../../src/mail/read/attachment/limits.ts";
import { kindOf } from "../../src/mail/read/attachment/kinds.ts";
import { tinyPdf } from "../support/pdf.ts";

const extractor = new PdfExtractor({ processes: 1, budgetMs: 20_000, idleMs: 1_000 });
afterAll(() => extractor.close());

describe("PdfExtractor", () => {
  test("pages in order, lines as the PDF sets them", async () => {
    const r = await extractor.extract(tinyPdf([["one", "two"], ["three"]]), 1000);
    expect(r).toEqual({ kind: "text", text: "one\ntwo\n\nthree", pages: 2, read: 2, unreadable: 0 });
  });

  test("stops reading pages once there is enough text for the window", async () => {
    const pages = Array.from({ length: 50 }, (_, i) => [`page ${i + 1} `.padEnd(100, "x")]);
    const r = await extractor.extract(tinyPdf(pages), 100);
    expect(r).toMatchObject({ kind: "text", pages: 50, read: 3 });
  });

  test("a damaged PDF is 'invalid', never a crash", async () => {
    const r = await extractor.extract(new TextEncoder().encode("%PDF-1.4\nnot really a pdf at all\n%%EOF"), 1000);
    expect(r).toEqual({ kind: "invalid" });
  });

  test("over the budget: timeout, the worker is terminated, and the next job still works", async () => {
    const hasty = new PdfExtractor({ processes: 1, budgetMs: 1, idleMs: 1_000 });
    try {
      expect(await hasty.extract(tinyPdf([["slow"]]), 100)).toEqual({ kind: "timeout" });
      expect(await extractor.extract(tinyPdf([["after"]]), 100)).toMatchObject({ kind: "text", text: "after" });
    } finally {
      hasty.close();
    }
  });
});

describe("attachment kinds and limits", () => {
  test("signatures, not declared types", () => {
    expect(imageType(Buffer.from("89504e470d0a1a0a0000", "hex"))).toBe("image/png");
    expect(imageType(Buffer.from("ffd8ffe0", "hex"))).toBe("image/jpeg");
    expect(imageType(Buffer.from("GIF89a..."))).toBe("image/gif");
    expect(imageType(Buffer.from("RIFF\x00\x00\x00\x00WEBPVP8 ", "latin1"))).toBe("image/webp");
    expect(imageType(Buffer.from("<svg xmlns=...>"))).toBeNull();
    expect(isPdf(Buffer.from("junk before\n%PDF-1.7\n"))).toBe(true);
    expect(isPdf(Buffer.from("PK\x03\x04"))).toBe(false);
  });

  test("kinds from the declared type, and the file name only for generic types", () => {
    expect(kindOf("text/calendar", "invite.ics")).toBe("document-text");
    expect(kindOf("application/ics", null)).toBe("document-text");
    expect(kindOf("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", null)).toBe("document");
    expect(kindOf("application/zip", "Budget.XLSX")).toBe("document"); // a ZIP named as an Office file is one to try
    expect(kindOf("application/msword", "old.doc")).toBe("other"); // the binary Word format is not read
    expect(kindOf("application/vnd.api+json", null)).toBe("text");
    expect(kindOf("message/rfc822", null)).toBe("message");
    expect(kindOf("application/octet-stream", "Scan.PDF")).toBe("pdf");
    expect(kindOf("application/octet-stream", "x.exe")).toBe("other");
    expect(kindOf("application/zip", "notes.txt")).toBe("other"); // a declared type is never overridden by a name
    expect(kindOf("image/svg+xml", "logo.svg")).toBe("other");
  });

  test("caps: a whole-only part over its cap is not fetched; every cap is below the literal limit", () => {
    expect(encodedCap(10 * 1024 * 1024, "base64")).toBeLessThanOrEqual(MAX_FETCH);
    expect(fetchCap("pdf", { type: "application/pdf", encoding: "base64", size: 15 * 1024 * 1024 })).toBeNull();
    expect(fetchCap("pdf", { type: "application/pdf", encoding: "base64", size: 1024 })).toBe(encodedCap(10 * 1024 * 1024, "base64"));
    expect(fetchCap("other", { type: "application/zip", size: 10 })).toBeNull();
    expect(fetchCap("text", { type: "text/plain", size: 50 * 1024 * 1024 })).toBe(2 * 1024 * 1024);
  });
});
