// What a part's bytes are, by their signatures, whatever the sender declared: an image reaches the
// client with the type its bytes show, and a "PDF" that is not one never reaches PDF.js.

export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const startsWith = (b: Uint8Array, sig: number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** PNG (RFC 2083 §3.1), JPEG (SOI + a marker), GIF87a/89a, WebP (RIFF....WEBP); else null. */
export function imageType(b: Uint8Array): ImageType | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(b, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(b, ascii("GIF87a")) || startsWith(b, ascii("GIF89a"))) return "image/gif";
  if (startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

/** ISO 32000 §7.5.2: the header `%PDF-`; readers accept it within the first 1024 bytes. */
export function isPdf(b: Uint8Array): boolean {
  const head = Buffer.from(b.buffer, b.byteOffset, Math.min(b.length, 1024));
  return head.indexOf("%PDF-") >= 0;
}

/** Looks like text: no NUL in the first 8 KB (binary formats have them early; UTF-8 text never does). */
export function looksLikeText(b: Uint8Array): boolean {
  return !b.subarray(0, 8192).includes(0);
}
