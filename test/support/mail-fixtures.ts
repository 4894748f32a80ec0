// Raw RFC 5322 test messages (CRLF line ends), built from small MIME entities.
// Deterministic by default (fixed dates, counter-based Message-IDs) so assertions can be exact.

export interface Envelope {
  from?: string;
  to?: string | string[];
  cc?: string[];
  subject?: string;
  date?: Date;
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  /** Extra header lines, e.g. { "X-Priority": "1" }. */
  headers?: Record<string, string>;
}

/** A MIME entity: its own header lines plus body text. */
interface Entity { headers: string[]; body: string }

const CRLF = "\r\n";
export const DEFAULT_FROM = "Carol Example <carol@example.net>";
export const DEFAULT_TO = "alice@example.test";
export const DEFAULT_DATE = new Date("2024-03-05T10:00:00Z");

/** 1 KiB covering every byte value, so a download can be compared byte for byte. */
export const ATTACHMENT_BYTES = Uint8Array.from({ length: 1024 }, (_, i) => i % 256);
export const ATTACHMENT_NAME = "report.bin";

/** Non-ASCII values that utf8Headers() puts into RFC 2047 encoded-words. */
export const UTF8_SUBJECT = "Grüße aus Köln – 日本語のテスト ✓";
export const UTF8_NAME = "Zoë Ångström";

let counter = 0;
const nextId = () => `<fixture-${++counter}@example.test>`;
let boundaryCounter = 0;

/** RFC 5322 date in UTC, e.g. "Tue, 05 Mar 2024 10:00:00 +0000". */
export function rfc5322Date(d: Date): string {
  return d.toUTCString().replace("GMT", "+0000");
}

/** RFC 2047 B-encoding for non-ASCII text; words stay under 76 chars and never split a character. */
export function encodeWord(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return s;
  const words: string[] = [];
  let chunk = "";
  for (const ch of s) {
    if (Buffer.byteLength(chunk + ch) > 45) { words.push(chunk); chunk = ""; }
    chunk += ch;
  }
  words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString("base64")}?=`).join(CRLF + " ");
}

/** `Display Name <addr>` with the name encoded when needed. */
export function address(name: string, email: string): string {
  return /^[\x20-\x7e]*$/.test(name) ? `"${name}" <${email}>` : `${encodeWord(name)} <${email}>`;
}

const base64Lines = (data: Uint8Array | string) =>
  (Buffer.from(data).toString("base64").match(/.{1,76}/g) ?? []).join(CRLF);

function textPart(text: string, subtype: "plain" | "html" = "plain"): Entity {
  const ascii = /^[\x00-\x7f]*$/.test(text);
  return {
    headers: [`Content-Type: text/${subtype}; charset=utf-8`, `Content-Transfer-Encoding: ${ascii ? "7bit" : "base64"}`],
    body: ascii ? text.replace(/\r?\n/g, CRLF) : base64Lines(text),
  };
}

function attachmentPart(bytes: Uint8Array, filename: string, type = "application/octet-stream"): Entity {
  return {
    headers: [`Content-Type: ${type}; name="${filename}"`, `Content-Disposition: attachment; filename="${filename}"`, "Content-Transfer-Encoding: base64"],
    body: base64Lines(bytes),
  };
}

export function multipart(subtype: "mixed" | "alternative", parts: Entity[]): Entity {
  const b = `=_${subtype}_${++boundaryCounter}`;
  const body = parts.map((p) => `--${b}${CRLF}${p.headers.join(CRLF)}${CRLF}${CRLF}${p.body}${CRLF}`).join("") + `--${b}--`;
  return { headers: [`Content-Type: multipart/${subtype}; boundary="${b}"`], body };
}

/** Assembles the top-level message from an envelope and a body entity. */
export function buildMessage(env: Envelope, entity: Entity): string {
  const to = Array.isArray(env.to) ? env.to : [env.to ?? DEFAULT_TO];
  const lines = [
    `From: ${env.from ?? DEFAULT_FROM}`,
    `To: ${to.join(", ")}`,
    ...(env.cc?.length ? [`Cc: ${env.cc.join(", ")}`] : []),
    `Subject: ${encodeWord(env.subject ?? "Test message")}`,
    `Date: ${rfc5322Date(env.date ?? DEFAULT_DATE)}`,
    `Message-ID: ${env.messageId ?? nextId()}`,
    ...(env.inReplyTo ? [`In-Reply-To: ${env.inReplyTo}`] : []),
    ...(env.references?.length ? [`References: ${env.references.join(" ")}`] : []),
    ...Object.entries(env.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    "MIME-Version: 1.0",
    ...entity.headers,
  ];
  return lines.join(CRLF) + CRLF + CRLF + entity.body + CRLF;
}

export const plainText = (env: Envelope = {}, text = "Hello Alice,\nthis is a plain text message.\n") =>
  buildMessage({ subject: "Plain text", ...env }, textPart(text));

export const htmlOnly = (env: Envelope = {}, html = "<html><body><p>Hello <b>Alice</b></p></body></html>") =>
  buildMessage({ subject: "HTML only", ...env }, textPart(html, "html"));

export const alternative = (env: Envelope = {}, text = "Hello Alice (text)", html = "<p>Hello <i>Alice</i> (html)</p>") =>
  buildMessage({ subject: "Alternative", ...env }, multipart("alternative", [textPart(text), textPart(html, "html")]));

export const withAttachment = (env: Envelope = {}, bytes = ATTACHMENT_BYTES, filename = ATTACHMENT_NAME) =>
  buildMessage({ subject: "With attachment", ...env }, multipart("mixed", [textPart("See the attached file."), attachmentPart(bytes, filename)]));

/** RFC 2047 subject and sender name, UTF-8 (base64) body. */
export const utf8Headers = (env: Envelope = {}) =>
  buildMessage(
    { subject: UTF8_SUBJECT, from: address(UTF8_NAME, "zoe@example.net"), ...env },
    textPart(`${UTF8_SUBJECT}\nViele Grüße, ${UTF8_NAME}\n`),
  );

/**
 * A reply chain of `length` messages alternating between two people; each reply carries
 * In-Reply-To of its parent and References of the whole chain so far.
 */
export function thread(length = 3, opts: { subject?: string; start?: Date; people?: [string, string]; id?: string } = {}): string[] {
  const [a, b] = opts.people ?? ["alice@example.test", "bob@example.test"];
  const subject = opts.subject ?? "Project kickoff";
  const start = (opts.start ?? DEFAULT_DATE).getTime();
  const ids = Array.from({ length }, (_, i) => `<thread-${opts.id ?? "t1"}-${i + 1}@example.test>`);
  return ids.map((messageId, i) =>
    plainText(
      {
        from: i % 2 ? b : a,
        to: i % 2 ? a : b,
        subject: i ? `Re: ${subject}` : subject,
        date: new Date(start + i * 3_600_000),
        messageId,
        inReplyTo: ids[i - 1],
        references: ids.slice(0, i),
      },
      `Message ${i + 1} of the thread.\n`,
    ),
  );
}

const MONTH_MS = 30.44 * 86_400_000;

/** `count` plain messages dated from `start` over `months` months, evenly spread, oldest first. */
export function spreadOverMonths(count: number, months = 6, start = new Date("2024-01-15T09:00:00Z")): Array<{ date: Date; raw: string }> {
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(start.getTime() + Math.floor((i * months * MONTH_MS) / count));
    return { date, raw: plainText({ subject: `Monthly note ${i + 1}`, date }, `Note ${i + 1} from ${date.toISOString().slice(0, 7)}.\n`) };
  });
}

/** One of each kind, named, for seeding a varied mailbox. */
export function fixtureSet(): Array<{ name: string; raw: string }> {
  return [
    { name: "plain", raw: plainText() },
    { name: "html", raw: htmlOnly() },
    { name: "alternative", raw: alternative() },
    { name: "attachment", raw: withAttachment() },
    { name: "utf8", raw: utf8Headers() },
    ...thread(3).map((raw, i) => ({ name: `thread-${i + 1}`, raw })),
    ...spreadOverMonths(6).map(({ raw }, i) => ({ name: `month-${i + 1}`, raw })),
  ];
}
