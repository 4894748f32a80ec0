// Attaching what is already in the mailbox (docs/design.md §6 `attach`, forwards): parts named by
// folder, uid and part number as get_email lists them, or a whole message. They are located first
// (BODYSTRUCTURE: names, types, sizes), so the 20 MB budget is checked before a byte is downloaded;
// then fetched server-side (./part-bytes.ts). No byte of them passes through the model.
import type { ImapFlow, MessageStructureObject } from "imapflow";
import { InputError, MailError } from "../errors.ts";
import { fetchOwn, withMailbox } from "../imap/mailbox.ts";
import { partNotFound } from "../read/attachment/fetch.ts";
import { partsOf, type LocatedPart } from "../read/attachment/parts.ts";

/** One entry of `attach` as a tool receives it. */
export interface PartRefArg {
  folder: string;
  uid: number;
  part: string;
}

/** A part to attach, and the argument that named it (for errors). */
export interface PartRef extends PartRefArg {
  argument: string;
}

/** A part (or whole message) found in the mailbox, ready to fetch. */
export interface Located {
  ref: PartRef;
  /** The folder's real path (a special-use name resolved). */
  path: string;
  /** The FETCH section, or null for the whole message (BODY[]). */
  section: string | null;
  /** Content-Transfer-Encoding as the server reports it, lower case. */
  encoding: string;
  filename: string;
  contentType: string;
  /** Decoded size as the structure lets us estimate it, in bytes: what the budget counts. */
  estimate: number;
}

export const MAX_PART_REFS = 100;
const PART = /^[1-9]\d{0,3}(\.[1-9]\d{0,3}){0,15}$/; // RFC 9051 §6.4.5 section-part, bounded

export function checkPartRefs(list: readonly PartRefArg[] | undefined): PartRef[] {
  if (!list?.length) return [];
  if (list.length > MAX_PART_REFS) throw new InputError("attach", `${list.length} parts; at most ${MAX_PART_REFS} per message`);
  return list.map((r, i) => {
    const argument = `attach[${i}]`;
    if (!PART.test(r.part)) throw new InputError(`${argument}.part`, `${JSON.stringify(r.part)} is not a part number like "2" or "1.2" (see get_email's attachments)`);
    return { ...r, argument };
  });
}

/** Finds every referenced part: one BODYSTRUCTURE FETCH per folder for all its messages. */
export async function locateParts(client: ImapFlow, refs: PartRef[]): Promise<Located[]> {
  const byFolder = Map.groupBy(refs, (r) => r.folder);
  const found = new Map<PartRef, Located>();
  for (const [folder, list] of byFolder) {
    await withMailbox(client, folder, async (box) => {
      const uids = [...new Set(list.map((r) => r.uid))];
      const msgs = await fetchOwn(client, uids.join(","), { uid: true, bodyStructure: true }, true, new Set(uids));
      const structures = new Map(msgs.map((m) => [m.uid, m.bodyStructure]));
      for (const ref of list) {
        if (!structures.has(ref.uid)) throw new MailError("not_found", `${ref.argument}: no message with uid ${ref.uid} in "${box.path}". Use get_recent_emails or search_emails to find current uids.`);
        found.set(ref, locatePart(ref, box.path, structures.get(ref.uid)));
      }
    }, { readOnly: true, freshness: "verify" });
  }
  return refs.map((r) => found.get(r)!);
}

/** A part of a message whose structure is known: an error listing its parts when there is no such part. */
export function locatePart(ref: PartRef, path: string, structure: MessageStructureObject | undefined): Located {
  const parts = partsOf(structure);
  const hit = parts.find((p) => p.info.part === ref.part);
  if (!hit) {
    const err = partNotFound(path, ref, parts);
    throw new MailError("not_found", `${ref.argument}: ${err.message}`);
  }
  return fromPart(ref, path, hit);
}

function fromPart(ref: PartRef, path: string, p: LocatedPart): Located {
  const type = p.node.type.toLowerCase();
  const charset = p.node.parameters?.charset;
  return {
    ref, path, section: p.section,
    encoding: (p.node.encoding ?? "7bit").toLowerCase(),
    filename: safeName(p.info.filename) ?? `part-${ref.part}.${extension(type)}`,
    // A text part keeps its charset, or its bytes would be read as US-ASCII (RFC 2046 §4.1.2).
    contentType: type.startsWith("text/") && charset && /^[A-Za-z0-9._:-]{1,40}$/.test(charset) ? `${type}; charset=${charset}` : type,
    estimate: p.info.size,
  };
}

/** The whole message as an attachment (message/rfc822, named after its subject like mail clients do). */
export function wholeMessage(ref: PartRef, path: string, size: number, subject: string): Located {
  const name = safeName(subject.slice(0, 200)) ?? "message";
  return { ref, path, section: null, encoding: "8bit", filename: `${name}.eml`, contentType: "message/rfc822", estimate: size };
}

/** A file name that stays one name: no path separators (the sender wrote it), or null when nothing is left. */
function safeName(name: string | null): string | null {
  const clean = name?.replace(/[\\/]/g, "_").trim();
  return clean ? clean : null;
}

const EXTENSIONS: Record<string, string> = {
  "text/plain": "txt", "text/html": "html", "text/calendar": "ics", "application/pdf": "pdf",
  "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "message/rfc822": "eml",
};
const extension = (type: string) => EXTENSIONS[type] ?? "bin";
