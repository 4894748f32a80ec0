// Downloading located parts (./mailbox-parts.ts) server-side: BODY.PEEK[section]<offset.length> in
// chunks under the literal limit (src/mail/imap/response-limits.ts), in EXAMINE, so \Seen is never set,
// then the transfer encoding removed. A part comes back byte for byte as its sender attached it.
import type { ImapFlow } from "imapflow";
import { MAX_ATTACHMENT_BYTES, type Attachment } from "../compose/message.ts";
import { MailError } from "../errors.ts";
import { fetchByUid, sectionOf, withMailbox } from "../imap/mailbox.ts";
import { decodeTransfer } from "../mime/tree.ts";
import type { Located } from "./mailbox-parts.ts";

// 8 MB of literal per FETCH: well under the 20 MB literal and 24 MB response limits, and few round
// trips (a 20 MB attachment in base64 is 4 of them).
export const CHUNK_BYTES = 8 * 1024 * 1024;

/** The most encoded octets that can decode to `decoded` bytes (base64 wrapped at 76, QP at worst 3 per byte). */
export function encodedCap(encoding: string, decoded: number): number {
  if (encoding === "base64") return Math.ceil((decoded * 4) / 3 / 76) * 78 + 4096;
  if (encoding === "quoted-printable") return decoded * 3 + 4096;
  return decoded + 4096;
}

/**
 * Fetches and decodes every located part, in order; `maxDecoded` bounds them together (a server may
 * understate a size in BODYSTRUCTURE: what arrives is what counts).
 */
export async function fetchLocated(client: ImapFlow, list: Located[], maxDecoded: number): Promise<Attachment[]> {
  const out: Attachment[] = [];
  let left = maxDecoded;
  for (const loc of list) {
    const raw = await withMailbox(client, loc.path, () => rawBytes(client, loc, encodedCap(loc.encoding, left)), { readOnly: true, freshness: "none" });
    const content = loc.section === null ? raw : decodeTransfer(raw, loc.encoding);
    left -= content.length;
    if (left < 0) throw tooLarge(loc);
    out.push({ filename: loc.filename, content, contentType: loc.contentType });
  }
  return out;
}

/** The part's octets as the server holds them, at most `cap`, fetched CHUNK_BYTES at a time. */
export async function rawBytes(client: ImapFlow, loc: Pick<Located, "ref" | "path" | "section">, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const want = Math.min(CHUNK_BYTES, cap + 1 - at);
    const query = loc.section === null ? { source: { start: at, maxLength: want } } : { bodyParts: [{ key: loc.section, start: at, maxLength: want }] };
    const msg = await fetchByUid(client, loc.ref.uid, query);
    if (!msg) throw new MailError("not_found", `${loc.ref.argument}: the message with uid ${loc.ref.uid} is no longer in "${loc.path}" (moved or deleted meanwhile). Nothing was saved or sent.`);
    const got = loc.section === null ? msg.source : sectionOf(msg.bodyParts, loc.section);
    if (!got && at === 0) throw new MailError("protocol", `${loc.ref.argument}: the mail server did not return ${what(loc)}. Try again.`);
    if (got?.length) chunks.push(got);
    at += got?.length ?? 0;
    if (at > cap) throw tooLarge(loc);
    if (!got || got.length < want) return Buffer.concat(chunks);
  }
}

const what = (loc: Pick<Located, "ref" | "path" | "section">) =>
  `${loc.section === null ? "the message" : `part ${loc.ref.part} of the message`} with uid ${loc.ref.uid} in "${loc.path}"`;

function tooLarge(loc: Pick<Located, "ref" | "path" | "section">): MailError {
  return new MailError("invalid", `${loc.ref.argument}: with ${what(loc)} the attachments come to more than ${MAX_ATTACHMENT_BYTES / 1048576} MB, ` +
    "the most one message may carry. Nothing was saved or sent.");
}
