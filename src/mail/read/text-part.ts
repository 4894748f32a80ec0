// The text of a large message without downloading it: only its text part (the first inline plain
// text, else the first HTML, as get_email picks it), in one FETCH of BODY.PEEK[part]<0.cap>, its
// transfer encoding, charset and format=flowed undone as for a whole message (../mime/readable-parts.ts).
// One round trip where imapflow's download() takes two and then one per 64 KB.
import type { ImapFlow, MessageStructureObject } from "imapflow";
import { fetchByUid, sectionOf } from "../imap/mailbox.ts";
import { decodeText, type Segment } from "../mime/readable-parts.ts";
import { decodeTransfer } from "../mime/tree.ts";
import { renumber } from "./part-numbers.ts";

export interface TextPart {
  segment: Segment;
  /** The part is longer than the cap: the text is its beginning. */
  cut: boolean;
}

/** Run inside the message's folder lock. Null when the message has no text part. */
export async function textPartOf(client: ImapFlow, uid: number, root: MessageStructureObject | undefined, cap: number): Promise<TextPart | null> {
  const node = textNode(root);
  if (!node || !root) return null;
  // RFC 3501 §6.4.5: the body of a message that is not multipart is part 1, which TEXT names too.
  const section = !root.type.startsWith("multipart/") && node.part === "1" ? "TEXT" : node.part ?? "1";
  const msg = await fetchByUid(client, uid, { uid: true, bodyParts: [{ key: section, start: 0, maxLength: cap }] });
  const raw = sectionOf(msg?.bodyParts, section);
  if (!raw) return null;
  const params = node.parameters ?? {};
  const text = decodeText({
    part: node.part ?? "1", type: node.type, charset: params.charset ?? null, flowed: params.format?.toLowerCase() === "flowed",
    delSp: params.delsp?.toLowerCase() === "yes", disposition: null, filename: null, children: [], message: null,
    content: decodeTransfer(raw, (node.encoding ?? "7bit").toLowerCase()),
  });
  return { segment: node.type === "text/html" ? { kind: "html", html: text } : { kind: "text", text }, cut: raw.length >= cap };
}

// RFC 2045 §5.2 and RFC 2046 §4.1.4, as in mime/readable-parts.ts: a text part with an unknown subtype, or a
// type that is not type/subtype (imapflow shows `Content-Type: text` as "/"), is plain text.
const isPlain = (type: string) => type !== "text/html" && (type.startsWith("text/") || !/^[^/]+\/[^/]+$/.test(type));

/** The first inline plain-text part, else the first text/html part (depth first, as mail clients do). */
export function textNode(root: MessageStructureObject | undefined): MessageStructureObject | null {
  const nodes: MessageStructureObject[] = [];
  const walk = (n: MessageStructureObject) => {
    if (n.childNodes?.length) n.childNodes.forEach(walk);
    else if (n.disposition !== "attachment") nodes.push(n);
  };
  if (root) walk(renumber(root, "", true));
  return nodes.find((n) => isPlain(n.type)) ?? nodes.find((n) => n.type === "text/html") ?? null;
}
