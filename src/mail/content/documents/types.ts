// What the document helper (./worker.ts) is asked and answers, shared by the server's side
// (./reader.ts) and the readers of each format.

/** The formats read as documents; HTML, PDF and attached messages have readers of their own. */
export const DOCUMENT_FORMATS = ["docx", "xlsx", "pptx", "odt", "ods", "odp", "rtf", "csv", "ics", "vcf"] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** Formats stored in a ZIP container (ECMA-376 Part 2 OPC; OASIS ODF 1.3 Part 2 §3). */
export const ZIP_FORMATS = new Set<DocumentFormat>(["docx", "xlsx", "pptx", "odt", "ods", "odp"]);

export interface DocumentJob {
  format: DocumentFormat;
  /** Characters of text wanted at most (twice max_chars, so a cut can be seen). */
  want: number;
  /** The part's declared charset, for the text formats (csv, ics, vcf). */
  charset: string | null;
}

export type DocumentText =
  | { kind: "text"; text: string; omitted: string[] }
  /** Not read, with the reason in plain words (a zip bomb, a damaged file, not this format). */
  | { kind: "refused"; reason: string };

export type DocumentOutcome = DocumentText | { kind: "timeout" } | { kind: "memory" } | { kind: "busy" } | { kind: "error" };

/** Thrown by a reader for a file it will not read; the message is the reason given to the caller. */
export class DocumentRefused extends Error {}
