// get_attachment for a document (Office, OpenDocument, RTF, CSV, iCalendar, vCard): its text from
// the document helper (src/mail/content/documents/), with what was left out, or why none.
import type { ContentReaders } from "../../content/readers.ts";
import type { DocumentFormat } from "../../content/documents/types.ts";
import { documentFormat } from "./document-formats.ts";
import { LIMITS, megabytes } from "./limits.ts";
import type { LocatedPart } from "./parts.ts";
import { nothing, textReading, type Reading } from "./readers.ts";
import { looksLikeText } from "./sniff.ts";

export interface DocumentOptions {
  maxChars: number;
  /** Only the first LIMITS octets were fetched (a text format). */
  cut: boolean;
  /** Only the file name said which format (a generic or mislabelled type). */
  guessed: boolean;
  readers: ContentReaders;
}

const NAMES: Record<DocumentFormat, string> = {
  docx: "Word document", xlsx: "Excel workbook", pptx: "PowerPoint presentation", odt: "OpenDocument text",
  ods: "OpenDocument spreadsheet", odp: "OpenDocument presentation", rtf: "RTF document", csv: "CSV file",
  ics: "calendar file", vcf: "contact card",
};

export async function readDocumentPart(located: LocatedPart, bytes: Buffer, o: DocumentOptions): Promise<Reading> {
  const format = documentFormat(located.node.type, located.info.filename)!;
  const name = NAMES[format];
  if (o.guessed && !(format === "csv" || format === "ics" || format === "vcf" ? looksLikeText(bytes) : true)) {
    return nothing(`Its file name says ${name}, but its content is binary, so it is not returned.`);
  }
  const docs = o.readers.documents;
  const r = await docs.read(bytes, format, located.node.parameters?.charset ?? null, o.maxChars, o.readers.owner);
  const limits = docs.options;
  if (r.kind === "refused") return nothing(`The ${name} was not read: ${r.reason}.`);
  if (r.kind === "timeout") return nothing(`The ${name} could not be read within ${limits.budgetMs / 1000} s of work (too large or too complex), so no text is returned.`);
  if (r.kind === "memory") {
    return nothing(`Reading the ${name} was stopped: it needed more than the ${limits.memory.memoryMb} MB of memory this server allows one document, so no text is returned. Open it in an office program.`);
  }
  if (r.kind === "busy") return nothing(`This server is busy reading other documents and could not start on this one within ${limits.maxWaitMs / 1000} s. Try again in a minute.`);
  if (r.kind === "error") return nothing(`Reading the ${name} failed, so no text is returned.`);
  const cutNote = o.cut ? `Only its first ${megabytes(LIMITS["document-text"])} were read.` : null;
  const omitted = [...r.omitted, ...(o.cut ? [`everything after its first ${megabytes(LIMITS["document-text"])}`] : [])];
  if (!r.text.trim()) return { ...nothing(`The ${name} has no text to show.`), format, omitted: omitted.join("; ") || null };
  return { ...textReading(r.text, o.maxChars, { cut: o.cut, notes: [cutNote] }), format, omitted: omitted.join("; ") || null };
}
