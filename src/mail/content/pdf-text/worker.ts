// The PDF→text helper process (see ./extract.ts, ../helper/). PDF.js (through unpdf's serverless
// build, which runs PDF.js's own worker code inline) parses here, so a document that is slow, huge
// or built to exhaust memory costs only this process, which the server stops at its budget or
// memory ceiling. Started by ../helper/roles.ts (the executable: `--content-helper pdf-text`).
import { getResolvedPDFJS } from "unpdf";
import { serveJobs } from "../helper/serve.ts";
import type { PdfText } from "./pdf-text.ts";

type PdfDocument = Awaited<ReturnType<Awaited<ReturnType<typeof getResolvedPDFJS>>["getDocument"]>["promise"]>;

// isEvalSupported: false — PDF.js would otherwise compile font programs with `new Function`
// (CVE-2024-4367 was arbitrary JavaScript from a crafted font). No font faces, system fonts or
// network: text extraction needs none of them.
const OPTIONS = { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0, stopAtErrors: false };

/** The job: the PDF's bytes as the payload, and how many characters are wanted. */
void serveJobs((input, bytes) => extract(bytes, (input as { want: number }).want), getResolvedPDFJS);

async function extract(bytes: Uint8Array, want: number): Promise<PdfText> {
  let pdf: PdfDocument;
  try {
    // unpdf's getResolvedPDFJS installs the globals PDF.js expects outside a browser, then loads its
    // bundled build. Not unpdf's getDocumentProxy: it calls import.meta.resolve, which the
    // executable's bytecode (CommonJS) build cannot hold.
    const { getDocument } = await getResolvedPDFJS();
    pdf = await getDocument({ data: bytes, ...OPTIONS }).promise;
  } catch (err) {
    if (/out of memory/i.test(String((err as Error)?.message))) throw err;
    return { kind: (err as { name?: string }).name === "PasswordException" ? "encrypted" : "invalid" };
  }
  try {
    const pages: string[] = [];
    let length = 0;
    let unreadable = 0;
    for (let n = 1; n <= pdf.numPages && length < want; n++) {
      const text = await pageText(pdf, n);
      if (text === null) unreadable++;
      pages.push(text ?? "");
      length += (text ?? "").length + 2;
    }
    return { kind: "text", text: pages.join("\n\n"), pages: pdf.numPages, read: pages.length, unreadable };
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}

/** One page's text, lines as PDF.js marks them (hasEOL); null when the page cannot be read. */
async function pageText(pdf: PdfDocument, n: number): Promise<string | null> {
  try {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    page.cleanup();
    return content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("").trim();
  } catch (err) {
    if (/out of memory/i.test(String((err as Error)?.message))) throw err;
    return null;
  }
}
