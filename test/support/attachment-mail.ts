// Messages with one attachment of each kind get_attachment reads, built from small MIME entities
// on top of mail-fixtures.ts (CRLF line ends, base64 wrapped at 76 characters as mailers do).
import { buildMessage, type Envelope } from "./mail-fixtures.ts";

export interface Entity { headers: string[]; body: string }

const CRLF = "\r\n";
let boundaries = 0;

export const base64Lines = (data: Uint8Array | string) =>
  (Buffer.from(data).toString("base64").match(/.{1,76}/g) ?? []).join(CRLF);

export const note = (text: string): Entity => ({ headers: ["Content-Type: text/plain; charset=utf-8"], body: text });

/** An attachment, base64 unless `encoding` says otherwise (then `body` is written as is). */
export function attached(type: string, filename: string | null, data: Uint8Array | string, encoding = "base64"): Entity {
  const name = filename ? `; name="${filename}"` : "";
  return {
    headers: [`Content-Type: ${type}${name}`, `Content-Disposition: attachment${filename ? `; filename="${filename}"` : ""}`, `Content-Transfer-Encoding: ${encoding}`],
    body: encoding === "base64" ? base64Lines(data) : Buffer.from(data).toString("latin1"),
  };
}

export function mixed(parts: Entity[]): Entity {
  const b = `=_att_${++boundaries}`;
  return {
    headers: [`Content-Type: multipart/mixed; boundary="${b}"`],
    body: parts.map((p) => `--${b}${CRLF}${p.headers.join(CRLF)}${CRLF}${CRLF}${p.body}${CRLF}`).join("") + `--${b}--`,
  };
}

/** A note, then the attachment: the attachment is part 2. */
export const withPart = (env: Envelope, part: Entity) => buildMessage(env, mixed([note("See the attachment."), part]));

/** A 1×1 PNG (a real one: signature, IHDR, IDAT, IEND). */
export const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
/** The first bytes of a JPEG (SOI, APP0 JFIF), enough for a signature check. */
export const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
