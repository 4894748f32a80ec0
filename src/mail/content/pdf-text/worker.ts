// The PDF→text thread (see ./extract.ts). PDF.js (through unpdf's serverless build, which runs
// PDF.js's own worker code inline) parses here, so a document that is slow or huge to parse costs
// only this thread, which the pool terminates when the budget is spent.
// Built into the single executable as its own entry point (scripts/build.ts).
import { getResolvedPDFJS } from "unpdf";
import type { PdfJob, PdfText } from "./extract.ts";

declare const self: Worker;

// PDF.js reports recoverable problems of a document (a bad xref, a missing font) on the console;
// here that would be the server's stdout, with text chosen by whoever wrote the PDF.
for (const k of ["log", "info", "warn", "error", "debug"] as const) console[k] = () => {};

type PdfDocument = Awaited<ReturnType<Awaited<ReturnType<typeof getResolvedPDFJS>>["getDocument"]>["promise"]>;

// isEvalSupported: false — PDF.js would otherwise compile font programs with `new Function`
// (CVE-2024-4367 was arbitrary JavaScript from a crafted font). No font faces, system fonts or
// network: text extraction needs none of them.
const OPTIONS = { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0, stopAtErrors: false };

self.onmessage = async (event: MessageEvent<{ id: number; input: PdfJob }>) => {
  const { id, input } = event.data;
  self.postMessage({ id, value: await extract(input) });
};

async function extract({ bytes, want }: PdfJob): Promise<PdfText> {
  let pdf: PdfDocument;
  try {
    // unpdf's getResolvedPDFJS installs the globals PDF.js expects outside a browser, then loads its
    // bundled build. Not unpdf's getDocumentProxy: it calls import.meta.resolve, which the
    // executable's bytecode (CommonJS) build cannot hold.
    const { getDocument } = await getResolvedPDFJS();
    pdf = await getDocument({ data: bytes, ...OPTIONS }).promise;
  } catch (err) {
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
  } catch {
    return null;
  }
}
