// What get_attachment does with a part, from its declared type (and, for the generic types
// mailers use when they do not know better, its file name). The declared type only decides what
// to try: images and PDFs are checked by their bytes (./sniff.ts) before anything is returned.
// Documents (./document-formats.ts) are read whole ("document": Office, OpenDocument, RTF) or from
// their start ("document-text": CSV, iCalendar, vCard).
import { isMessageType } from "../../mime/tree.ts";
import { documentFormat, TEXT_DOCUMENTS } from "./document-formats.ts";

export type Kind = "text" | "html" | "message" | "pdf" | "image" | "document" | "document-text" | "other";

// Structured text that mail carries as application/*: JSON (RFC 8259), XML (RFC 7303), shell-free
// scripts. (Calendars and CSV are documents: ./document-formats.ts.)
const TEXT_TYPES = new Set([
  "application/json", "application/xml", "application/x-ndjson",
  "application/yaml", "application/x-yaml", "application/toml", "message/delivery-status",
]);
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/jpg", "image/pjpeg", "image/gif", "image/webp"]);
const GENERIC = new Set(["application/octet-stream", "application/binary", "application/x-download", "application/force-download", "application/unknown"]);

const BY_EXTENSION: Record<string, Kind> = {
  pdf: "pdf", png: "image", jpg: "image", jpeg: "image", gif: "image", webp: "image",
  txt: "text", json: "text", xml: "text", md: "text", log: "text",
  htm: "html", html: "html", eml: "message",
};

export function kindOf(type: string, filename: string | null): Kind {
  const format = documentFormat(type, filename);
  if (format) return TEXT_DOCUMENTS.has(format) ? "document-text" : "document";
  const t = type.toLowerCase();
  if (t === "text/html" || t === "application/xhtml+xml") return "html";
  if (t.startsWith("text/") || TEXT_TYPES.has(t) || /^application\/[a-z0-9.+-]+\+(json|xml)$/.test(t)) return "text";
  if (isMessageType(t)) return "message";
  if (t === "application/pdf" || t === "application/x-pdf") return "pdf";
  if (IMAGE_TYPES.has(t)) return "image";
  if (GENERIC.has(t) && filename) return BY_EXTENSION[extension(filename)] ?? "other";
  return "other";
}

/** True when only the file name made a text kind of a generic type: the bytes must then look like text. */
export function guessedFromName(type: string): boolean {
  const t = type.toLowerCase();
  return GENERIC.has(t) || t === "application/zip" || t.startsWith("application/vnd.ms-") || t === "application/msword";
}

function extension(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot < 0 ? "" : filename.slice(dot + 1).toLowerCase();
}
