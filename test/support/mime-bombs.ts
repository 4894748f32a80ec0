// Messages whose MIME structure is built to cost a reader (issue 19, items 11 and 12), as raw
// RFC 5322 with CRLF line ends: one with thousands of parts, one nested deeper than any mail client
// writes. Both are valid MIME (RFC 2046 §5.1): what they hold is only unusual in amount.
import { buildMessage, type Envelope } from "./mail-fixtures.ts";

const CRLF = "\r\n";

/** A text note, then `count` small attachments named part-00001.txt…, in one multipart/mixed. */
export function manyParts(env: Envelope, count: number): string {
  const b = "=_many";
  const parts = [`--${b}${CRLF}Content-Type: text/plain; charset=utf-8${CRLF}${CRLF}A message with ${count} attachments.${CRLF}`];
  for (let i = 1; i <= count; i++) {
    const name = `part-${String(i).padStart(5, "0")}.txt`;
    parts.push(`--${b}${CRLF}Content-Type: text/plain; name="${name}"${CRLF}Content-Disposition: attachment; filename="${name}"${CRLF}${CRLF}x${CRLF}`);
  }
  return buildMessage(env, { headers: [`Content-Type: multipart/mixed; boundary="${b}"`], body: parts.join("") + `--${b}--` });
}

/** multipart/mixed nested `depth` levels deep, a text part at the bottom that says `text`, deep.txt attached beside it. */
export function deeplyNested(env: Envelope, depth: number, text: string): string {
  let inner = [`Content-Type: text/plain; charset=utf-8`, "", text].join(CRLF);
  inner = [`Content-Type: multipart/mixed; boundary="=_d0"`, "", "--=_d0", inner, "--=_d0",
    `Content-Type: text/plain; name="deep.txt"`, `Content-Disposition: attachment; filename="deep.txt"`, "", "The deep attachment.", "--=_d0--"].join(CRLF);
  for (let level = 1; level < depth; level++) {
    inner = [`Content-Type: multipart/mixed; boundary="=_d${level}"`, "", `--=_d${level}`, inner, `--=_d${level}--`].join(CRLF);
  }
  const at = inner.indexOf(CRLF + CRLF);
  return buildMessage(env, { headers: [inner.slice(0, at)], body: inner.slice(at + 4) });
}
