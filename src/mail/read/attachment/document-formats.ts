// Which document format a part is (src/mail/content/documents/), from its declared type, or from
// its file name when the type is one mailers use for anything (octet-stream), for any ZIP, or for
// the wrong Office family (a .docx sent as application/msword, a .csv as application/vnd.ms-excel,
// as Outlook and Windows browsers often label them).
import type { DocumentFormat } from "../../content/documents/types.ts";

const OOXML = "application/vnd.openxmlformats-officedocument.";
const ODF = "application/vnd.oasis.opendocument.";

const BY_TYPE: Record<string, DocumentFormat> = {
  [`${OOXML}wordprocessingml.document`]: "docx", [`${OOXML}wordprocessingml.template`]: "docx",
  "application/vnd.ms-word.document.macroenabled.12": "docx", "application/vnd.ms-word.template.macroenabled.12": "docx",
  [`${OOXML}spreadsheetml.sheet`]: "xlsx", [`${OOXML}spreadsheetml.template`]: "xlsx",
  "application/vnd.ms-excel.sheet.macroenabled.12": "xlsx", "application/vnd.ms-excel.template.macroenabled.12": "xlsx",
  [`${OOXML}presentationml.presentation`]: "pptx", [`${OOXML}presentationml.slideshow`]: "pptx", [`${OOXML}presentationml.template`]: "pptx",
  "application/vnd.ms-powerpoint.presentation.macroenabled.12": "pptx", "application/vnd.ms-powerpoint.slideshow.macroenabled.12": "pptx",
  [`${ODF}text`]: "odt", [`${ODF}text-template`]: "odt", [`${ODF}spreadsheet`]: "ods", [`${ODF}spreadsheet-template`]: "ods",
  [`${ODF}presentation`]: "odp", [`${ODF}presentation-template`]: "odp",
  "application/rtf": "rtf", "text/rtf": "rtf", "application/x-rtf": "rtf",
  "text/csv": "csv", "application/csv": "csv", "text/comma-separated-values": "csv", "text/x-csv": "csv", "text/tab-separated-values": "csv",
  "text/calendar": "ics", "application/ics": "ics", "text/x-vcalendar": "ics",
  "text/vcard": "vcf", "text/x-vcard": "vcf", "text/directory": "vcf",
};

const BY_EXTENSION: Record<string, DocumentFormat> = {
  docx: "docx", docm: "docx", dotx: "docx", dotm: "docx", xlsx: "xlsx", xlsm: "xlsx", xltx: "xlsx", xltm: "xlsx",
  pptx: "pptx", pptm: "pptx", ppsx: "pptx", ppsm: "pptx", potx: "pptx", odt: "odt", ott: "odt", ods: "ods", ots: "ods",
  odp: "odp", otp: "odp", rtf: "rtf", csv: "csv", tsv: "csv", ics: "ics", ical: "ics", ifb: "ics", vcs: "ics", vcf: "vcf", vcard: "vcf",
};

/** Types whose file name says more than they do. */
const LOOSE = new Set([
  "application/octet-stream", "application/binary", "application/x-download", "application/force-download", "application/unknown",
  "application/zip", "application/x-zip-compressed", "application/x-zip", "application/msword", "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint", "text/plain",
]);

/** The document format of a part, or null when it is not one this server reads as a document. */
export function documentFormat(type: string, filename: string | null): DocumentFormat | null {
  const t = type.toLowerCase();
  const declared = BY_TYPE[t];
  if (declared) return declared;
  if (!LOOSE.has(t) || !filename) return null;
  const dot = filename.lastIndexOf(".");
  return (dot < 0 ? undefined : BY_EXTENSION[filename.slice(dot + 1).toLowerCase()]) ?? null;
}

/** Formats that are text (read from their start, cut when long); the others are useful only whole. */
export const TEXT_DOCUMENTS = new Set<DocumentFormat>(["csv", "ics", "vcf"]);
