// The FETCH find_contacts sends forty times on a first call: header fields of a range of messages
// (RFC 3501 §6.4.5 BODY.PEEK[HEADER.FIELDS (…)]), each answer handed on as its UID and raw header
// block as it arrives. imapflow's fetch() builds a message object per answer (~4 KB of garbage each,
// measured with JSC's GC log) and keeps them all until the command ends; a custom command
// (imapflow's exec, its untagged FETCH handler) reads the parsed answer where it lies.
import type { ImapFlow } from "imapflow";

type Node = { type?: string; value?: unknown; section?: unknown } | Node[] | null | undefined;
interface Untagged { attributes?: Node[] }
type Exec = (command: string, attributes: unknown[], options: { untagged: Record<string, (u: Untagged) => void> }) => Promise<{ next(): void }>;

/** Called per answer: its UID and the header block the server sent (CRLF lines, a blank line at the end). */
export type OnBlock = (uid: number, block: Buffer) => void;

const atom = (value: string) => ({ type: "ATOM", value });

/**
 * FETCH (UID FETCH when `byUid`) of `range`'s `fields`; `onBlock` for each answer that carries both
 * a UID and the block. Another client's flag change reported meanwhile (RFC 3501 §7.4.2, FLAGS only)
 * carries neither and is passed over: these counts do not depend on flags.
 */
export async function fetchFieldBlocks(client: ImapFlow, range: string, byUid: boolean, fields: readonly string[], onBlock: OnBlock): Promise<void> {
  const query = [atom("UID"), { ...atom("BODY.PEEK"), section: [atom("HEADER.FIELDS"), fields.map(atom)] }];
  const exec = (client as unknown as { exec: Exec }).exec.bind(client);
  const onFetch = (u: Untagged) => readAnswer(u.attributes?.[1], onBlock);
  (await exec(byUid ? "UID FETCH" : "FETCH", [{ type: "SEQUENCE", value: range }, query], { untagged: { FETCH: onFetch } })).next();
}

/** The UID and the BODY[…] literal of one answer's item list (pairs of name and value). */
function readAnswer(items: Node, onBlock: OnBlock): void {
  if (!Array.isArray(items)) return;
  let uid = 0;
  let block: Buffer | null = null;
  for (let i = 0; i + 1 < items.length; i += 2) {
    const key = items[i];
    const value = items[i + 1];
    if (!key || Array.isArray(key) || typeof key.value !== "string" || !value || Array.isArray(value)) continue;
    const name = key.value.toUpperCase();
    if (name === "UID" && typeof value.value === "string") uid = Number(value.value);
    else if (name === "BODY" && key.section && Buffer.isBuffer(value.value)) block = value.value;
  }
  if (block && Number.isSafeInteger(uid) && uid > 0) onBlock(uid, block);
}
