// send_draft sends a saved draft exactly as saved (docs/design.md §6): its bytes are not rebuilt.
// Only the header block changes: Bcc fields are taken out of what goes over SMTP (RFC 5322 §3.6.3:
// the other recipients must not see them) but kept in the Sent copy, Date becomes the time of sending
// (RFC 5322 §3.6.1: when the message is ready to enter the mail system), and a draft without a
// usable Message-ID gets one. The envelope is To + Cc + Bcc.
import addressparser from "nodemailer/lib/addressparser";
import { newMessageId } from "../../compose/message.ts";
import { isValidAddress, MAX_RECIPIENTS } from "../../compose/recipients.ts";
import { MailError } from "../../errors.ts";
import { firstMessageId } from "../../mime/message-ids.ts";
import type { Deliverable } from "../deliverable.ts";

interface Field {
  /** Lower-case field name. */
  name: string;
  /** The field as written, folded lines joined by CRLF, without the final line end. */
  raw: string;
}

/** RFC 5322 §3.3 date-time, in UTC: "Tue, 05 Mar 2024 10:00:00 +0000". */
export const rfc5322Date = (d: Date) => d.toUTCString().replace("GMT", "+0000");

export function draftToSend(raw: Buffer, from: string, now: Date): Deliverable {
  const { fields, body } = splitHeader(raw);
  const addresses = (name: string) => fields.filter((f) => f.name === name).flatMap((f) => fieldAddresses(f));
  // Each address once (compared without case), as first written.
  const seen = new Set<string>();
  const envelope = [...addresses("to"), ...addresses("cc"), ...addresses("bcc")].filter((a) => !seen.has(a.toLowerCase()) && seen.add(a.toLowerCase()));
  if (!envelope.length) throw new MailError("invalid", "The draft has no recipient in To, Cc or Bcc: add one with update_draft, then send it.");
  if (envelope.length > MAX_RECIPIENTS) throw new MailError("invalid", `The draft has ${envelope.length} recipients; at most ${MAX_RECIPIENTS} are allowed per message.`);
  const idField = fields.find((f) => f.name === "message-id");
  const messageId = firstMessageId(idField ? value(idField) : null) ?? newMessageId(from);
  const kept = fields.filter((f) => f.name !== "date" && f.name !== "message-id");
  const head = (list: Field[]) => [`Date: ${rfc5322Date(now)}`, `Message-ID: ${messageId}`, ...list.map((f) => f.raw)].join("\r\n") + "\r\n\r\n";
  const stored = Buffer.concat([Buffer.from(head(kept), "latin1"), body]);
  const hasBcc = kept.some((f) => f.name === "bcc");
  const wire = hasBcc ? Buffer.concat([Buffer.from(head(kept.filter((f) => f.name !== "bcc")), "latin1"), body]) : stored;
  return { messageId, stored, wire, envelope: { from, to: envelope } };
}

/** The header block as fields (a line starting with space or tab continues the one before, RFC 5322 §2.2.3) and the body's bytes. */
function splitHeader(raw: Buffer): { fields: Field[]; body: Buffer } {
  let end = raw.indexOf("\r\n\r\n");
  let skip = 4;
  if (end < 0) [end, skip] = [raw.indexOf("\n\n"), 2];
  if (end < 0) [end, skip] = [raw.length, 0];
  const fields: Field[] = [];
  // latin1 keeps every byte as one character, so 8-bit header bytes go back out unchanged.
  for (const line of raw.subarray(0, end).toString("latin1").split(/\r?\n/)) {
    const last = fields.at(-1);
    if (/^[ \t]/.test(line) && last) last.raw += `\r\n${line}`;
    else if (line) fields.push({ name: line.slice(0, Math.max(0, line.indexOf(":"))).trim().toLowerCase(), raw: line });
  }
  return { fields, body: raw.subarray(Math.min(raw.length, end + skip)) };
}

/** The unfolded value, its bytes read as UTF-8 (an IDN address written raw stays itself). */
const value = (f: Field) => Buffer.from(f.raw.slice(f.raw.indexOf(":") + 1).replace(/\r\n[ \t]/g, " "), "latin1").toString("utf8");

function fieldAddresses(f: Field): string[] {
  return addressparser(value(f), { flatten: true }).map((a) => a.address).filter(Boolean).map((address) => {
    if (!isValidAddress(address)) {
      throw new MailError("invalid", `The draft's ${f.name === "bcc" ? "Bcc" : f.name === "cc" ? "Cc" : "To"} holds ${JSON.stringify(address)}, which is not an address this server can send to. Fix it with update_draft, then send it.`);
    }
    return address;
  });
}
