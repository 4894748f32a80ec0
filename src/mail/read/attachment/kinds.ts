// What get_attachment does with a part, from its declared type (and, for the generic types
// mailers use when they do not know better, its file name). The declared type only decides what
// to try: images and PDFs are checked by their bytes (./sniff.ts) before anything is returned.
import { isMessageType } from "../../mime/tree.ts";

export type Kind = "text" | "html" | "message" | "pdf" | "image" | "other";

// Structured text that mail carries as application/*: calendars (RFC 5545), CSV (RFC 4180 registers
// text/csv; some mailers say application/csv), JSON (RFC 8259), XML (RFC 7303), shell-free scripts.
const TEXT_TYPES = new Set([
  "application/json", "application/ics", "application/csv", "application/xml", "application/x-ndjson",
  "application/yaml", "application/x-yaml", "application/toml", "message/delivery-status",
]);
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/jpg", "image/pjpeg", "image/gif", "image/webp"]);
const GENERIC = new Set(["application/octet-stream", "application/binary", "application/x-download", "application/force-download", "application/unknown"]);

const BY_EXTENSION: Record<string, Kind> = {
  pdf: "pdf", png: "image", jpg: "image", jpeg: "image", gif: "image", webp: "image",
  txt: "text", csv: "text", tsv: "text", json: "text", ics: "text", ical: "text", vcs: "text", xml: "text", md: "text", log: "text",
  htm: "html", html: "html", eml: "message",
};

export function kindOf(type: string, filename: string | null): Kind {
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
  return GENERIC.has(type.toLowerCase());
}

function extension(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot < 0 ? "" : filename.slice(dot + 1).toLowerCase();
}
