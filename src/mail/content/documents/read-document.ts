// A document's bytes → its text, by format, in the document helper process (./worker.ts). The
// bytes are only ever parsed: nothing in a document is executed (no macros, no embedded objects,
// no formulas recalculated, no external links followed).
import { readCalendar } from "./calendar.ts";
import { readCsv } from "./csv.ts";
import { readDocx } from "./docx.ts";
import { readOdfText } from "./odf-text.ts";
import { readOds } from "./ods.ts";
import { ZipPackage } from "./package.ts";
import { readPptx } from "./pptx.ts";
import { readRtf } from "./rtf.ts";
import { TextSink } from "./sink.ts";
import { readXlsx } from "./xlsx.ts";
import { DocumentRefused, ZIP_FORMATS, type DocumentFormat, type DocumentJob, type DocumentText } from "./types.ts";

const PACKAGES: Partial<Record<DocumentFormat, (pkg: ZipPackage, sink: TextSink) => void>> = {
  docx: readDocx, xlsx: readXlsx, pptx: readPptx, odt: readOdfText, odp: readOdfText, ods: readOds,
};

export function readDocument(job: DocumentJob, bytes: Uint8Array): DocumentText {
  const sink = new TextSink(job.want);
  try {
    if (ZIP_FORMATS.has(job.format)) PACKAGES[job.format]!(new ZipPackage(bytes), sink);
    else if (job.format === "rtf") readRtf(bytes, sink);
    else if (job.format === "csv") readCsv(bytes, job.charset, sink);
    else readCalendar(bytes, job.charset, sink);
  } catch (err) {
    if (err instanceof DocumentRefused) return { kind: "refused", reason: err.message };
    if (/out of memory|call stack/i.test(String((err as Error)?.message))) throw err;
    return { kind: "refused", reason: "it could not be read (damaged, or not the format its name says)" };
  }
  return { kind: "text", text: sink.text(), omitted: sink.omitted };
}
