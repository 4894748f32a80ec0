// Bytes of a text format (CSV, iCalendar, vCard) as a string: the part's declared charset, else
// UTF-8; a byte order mark is dropped; an unknown charset label falls back to UTF-8.

export function decodeText(bytes: Uint8Array, charset: string | null): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes).replace(/^\uFEFF/, "");
}
