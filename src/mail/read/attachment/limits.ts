// How much of a part get_attachment fetches, by what it will do with it. Text is read from its
// start and cut (a longer text gives truncated: true); a PDF or an image is useful only whole, so
// past its limit nothing is fetched. Every cap stays below the IMAP literal limit
// (RESPONSE_LIMITS in ../../imap/response-limits.ts: 20 MB), and memory per call stays bounded by it.
import type { MessageStructureObject } from "imapflow";
import type { Kind } from "./kinds.ts";

const MB = 1024 * 1024;

/** Decoded bytes at most, per kind: what the docs (docs/tools.md, get_attachment) promise. */
export const LIMITS = {
  /** Text, HTML: the first 2 MB are read, far more than max_chars (at most 200,000) can show. */
  text: 2 * MB,
  /** An attached message: its first 4 MB, as get_email fetches a message whole up to 4 MB. */
  message: 4 * MB,
  pdf: 10 * MB,
  image: 1 * MB,
  /** Office, OpenDocument and RTF files, read whole in a helper process like a PDF. */
  document: 10 * MB,
  /** CSV, iCalendar and vCard: read from their start, like text, but further. */
  "document-text": 10 * MB,
} as const;

/** The most octets one FETCH of a part may bring: below the 20 MB literal limit, with room. */
export const MAX_FETCH = 16 * MB;

/** Kinds that are useful only whole. */
export const WHOLE = new Set<Kind>(["pdf", "image", "document"]);

export function encodingOf(node: MessageStructureObject): string {
  return (node.encoding ?? "").toLowerCase().trim();
}

/**
 * The encoded octets that hold `decoded` bytes at most. Base64 with CRLF after 76 characters is
 * 78/57 ≈ 1.37 of the data (PEM-style 64-character lines 1.375); quoted-printable at worst 3.
 */
export function encodedCap(decoded: number, encoding: string): number {
  const factor = encoding === "base64" ? 1.4 : encoding === "quoted-printable" ? 3 : 1;
  return Math.min(MAX_FETCH, Math.ceil(decoded * factor) + 4096);
}

/**
 * The octets to fetch for a part of this kind, or null to fetch none: nothing is read of a part
 * this tool does not return, nor of a whole-only part whose server-reported size is over its cap.
 */
export function fetchCap(kind: Kind, node: MessageStructureObject): number | null {
  if (kind === "other") return null;
  const limit = kind === "html" ? LIMITS.text : LIMITS[kind];
  if (!WHOLE.has(kind)) return Math.min(MAX_FETCH, limit);
  const cap = encodedCap(limit, encodingOf(node));
  return (node.size ?? 0) > cap ? null : cap;
}

export const megabytes = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
