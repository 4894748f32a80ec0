// The IMAP side of get_attachment: the message's BODYSTRUCTURE, then at most `cap` octets of the one
// part asked for (BODY.PEEK[section]<0.cap+1>), never the whole message. The folder is opened
// with EXAMINE and every fetch is a PEEK, so \Seen is never set. Both commands are UID FETCHes, so
// the folder view is proved current by "verify" (docs/freshness.md).
import type { ImapFlow } from "imapflow";
import { fetchByUid, sectionOf, withMailbox } from "../../imap/mailbox.ts";
import { uidNotFound } from "../../imap/uids.ts";
import { fenceUntrusted } from "../../content/sanitize.ts";
import { MailError } from "../../errors.ts";
import { partLines, partsOf, type LocatedPart } from "./parts.ts";
import { partsFromSource } from "./from-source.ts";

export interface PartQuery {
  folder: string;
  uid: number;
  /** RFC 9051 part number, e.g. "2" or "2.1". */
  part: string;
}

export interface FetchedPart {
  folder: string;
  located: LocatedPart;
  /** The part's octets as the server holds them (transfer-encoded); null when not fetched. */
  raw: Buffer | null;
  /** The part is longer than the cap: `raw` is its first `cap` octets. */
  cut: boolean;
}

/**
 * Finds `q.part` and fetches at most `capFor(part)` octets of it (null: only its description).
 * Unknown uid or part: a MailError that lists what exists.
 */
export async function fetchPart(client: ImapFlow, q: PartQuery, capFor: (p: LocatedPart) => number | null): Promise<FetchedPart> {
  return withMailbox(client, q.folder, async (box): Promise<FetchedPart> => {
    const msg = await fetchByUid(client, q.uid, { uid: true, bodyStructure: true });
    if (!msg) throw await uidNotFound(client, box, q.uid);
    if (!msg.bodyStructure) return fromSource(client, q, box.path, capFor);
    const parts = partsOf(msg.bodyStructure);
    const located = parts.find((p) => p.info.part === q.part);
    if (!located) throw partNotFound(box.path, q, parts);
    const cap = capFor(located);
    if (cap === null) return { folder: box.path, located, raw: null, cut: false };
    const res = await fetchByUid(client, q.uid, { uid: true, bodyParts: [{ key: located.section, start: 0, maxLength: cap + 1 }] });
    if (!res) throw await uidNotFound(client, box, q.uid);
    const raw = sectionOf(res.bodyParts, located.section);
    if (!raw) throw new MailError("protocol", `The mail server did not return part ${q.part} of uid ${q.uid} in "${box.path}". Try again; if it keeps happening, open the message in a mail program.`);
    return { folder: box.path, located, raw: raw.length > cap ? raw.subarray(0, cap) : raw, cut: raw.length > cap };
  }, { readOnly: true, freshness: "verify" });
}

/** The part from the message's own MIME, when the server's structure could not be read (./from-source.ts). */
async function fromSource(client: ImapFlow, q: PartQuery, folder: string, capFor: (p: LocatedPart) => number | null): Promise<FetchedPart> {
  const parts = await partsFromSource(client, q.uid, folder);
  const found = parts.find((p) => p.located.info.part === q.part);
  if (!found) throw partNotFound(folder, q, parts.map((p) => p.located));
  const cap = capFor(found.located);
  if (cap === null) return { folder, located: found.located, raw: null, cut: false };
  return { folder, located: found.located, raw: found.content.subarray(0, cap), cut: found.content.length > cap };
}

export function partNotFound(folder: string, q: PartQuery, parts: LocatedPart[]): MailError {
  const list = parts.length
    ? `\n${fenceUntrusted(partLines(parts).join("\n"), "The list of its parts (number, type, name, size)").text}\n`
    : " It has no parts with content. ";
  return new MailError(
    "not_found",
    `The message with uid ${q.uid} in "${folder}" has no part "${q.part}".${list}` +
      `Use a part number from get_email's attachments list (or one listed here).`,
  );
}
