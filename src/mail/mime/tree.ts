// A raw message as a tree of MIME parts, numbered as IMAP numbers them (RFC 9051 §6.4.5), with
// each leaf's content decoded from its transfer encoding. Splitting is @zone-eu/mailsplit's (the
// splitter under mailparser and imapflow); the reading rules a careful mail client applies are here.
import type { MimeNode, Splitter } from "@zone-eu/mailsplit";
import { libqp, mailsplit } from "./libs.ts";
import { headerView, type HeaderView } from "./headers.ts";

export interface MimePart {
  /** IMAP part number: "1", "2.1"; "" for a multipart root, which has none. */
  part: string;
  /** Lower-case type/subtype, normalised as RFC 2045 §5.2 says (see contentType). */
  type: string;
  charset: string | null;
  flowed: boolean;
  delSp: boolean;
  disposition: string | null;
  filename: string | null;
  children: MimePart[];
  /** A leaf's content, transfer encoding removed. */
  content: Buffer;
  /** For message/rfc822 (and message/global): the message inside, parsed. */
  message: ParsedMessage | null;
}

export interface ParsedMessage {
  headers: HeaderView;
  root: MimePart;
  /** Parts nested deeper than MAX_NESTING were left out. */
  tooDeep: boolean;
  /** Parts past the first MAX_PARTS were left out. */
  tooMany: boolean;
}

// Embedded messages nest (a forward of a forward of a digest…); past this depth they are listed
// but not opened, so a crafted message cannot make the parser recurse without end.
const MAX_DEPTH = 8;
// Multiparts nest too: parts deeper than this are left out (with what they hold), so every walk of
// the tree (numbering, the body, the attachment list) stays far inside the call stack. Real mail
// nests a few levels; Dovecot itself describes at most 100 (docs/decisions.md "A hostile mail
// server").
export const MAX_NESTING = 100;
// Parts read at most (mailsplit's own default is 1,000): a message of 10,000 parts is read whole
// when its server's structure could not be (../imap/structure-guard.ts), in ~100 ms fed in slices.
export const MAX_PARTS = 20_000;
const TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

interface RawNode {
  node: MimeNode;
  part: MimePart;
  chunks: Buffer[];
  depth: number;
}

/**
 * Parses a whole message (or just its header block). Never throws on malformed MIME. `prefix` is
 * the part number of the message/rfc822 part an embedded message sits in ("" at the top).
 */
export async function parseMessage(source: Buffer, prefix = "", depth = 0): Promise<ParsedMessage> {
  const { nodes, tooDeep, tooMany } = await split(source);
  const top = nodes[0];
  if (!top) return { headers: headerView(false), root: emptyPart(prefix), tooDeep, tooMany };
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    n.part.content = decodeTransfer(Buffer.concat(n.chunks), n.node.encoding);
    if (i % 1000 === 999) await turn();
  }
  number(top.part, prefix, true);
  const result: ParsedMessage = { headers: headerView(top.node.headers), root: top.part, tooDeep, tooMany };
  for (const { part } of nodes) {
    if (!isMessageType(part.type) || depth >= MAX_DEPTH) continue;
    part.message = await parseMessage(part.content, part.part, depth + 1);
    result.tooDeep ||= part.message.tooDeep;
    result.tooMany ||= part.message.tooMany;
  }
  return result;
}

export const isMessageType = (type: string) => type === "message/rfc822" || type === "message/global";

function split(source: Buffer): Promise<{ nodes: RawNode[]; tooDeep: boolean; tooMany: boolean }> {
  return new Promise((done) => {
    let tooDeep = false;
    let tooMany = false;
    const resolve = (nodes: RawNode[]) => done({ nodes, tooDeep, tooMany });
    // ignoreEmbedded: an attached message is one leaf here; parseMessage opens it itself, so
    // encoded or digest-default messages are read the same way as plain ones.
    const splitter = new (mailsplit().Splitter)({ ignoreEmbedded: true, maxChildNodes: MAX_PARTS });
    const nodes: RawNode[] = [];
    const byNode = new Map<unknown, RawNode>();
    splitter.on("data", (chunk: MimeNode | { type: "body" | "data"; node: MimeNode; value: Buffer }) => {
      if (chunk.type === "node") {
        const parent = byNode.get(chunk.parentNode);
        if (chunk.parentNode && (!parent || parent.depth >= MAX_NESTING)) return void (tooDeep = true); // left out, with its body
        const raw: RawNode = { node: chunk, part: toPart(chunk), chunks: [], depth: parent ? parent.depth + 1 : 0 };
        parent?.part.children.push(raw.part);
        byNode.set(chunk, raw);
        nodes.push(raw);
      } else if (chunk.type === "body") {
        byNode.get(chunk.node)?.chunks.push(chunk.value);
      }
    });
    const stream: NodeJS.EventEmitter = splitter; // its typings declare only the "data" event
    stream.once("end", () => resolve(nodes));
    stream.once("error", (err: Error) => { // keep what was read: a broken tail loses only itself
      tooMany = /child nodes/i.test(err?.message ?? "");
      resolve(nodes);
    });
    feed(splitter, source).catch(() => resolve(nodes));
  });
}

// Fed in slices with a turn of the event loop between them: splitting 4 MB in one go holds the
// loop for ~25 ms, which other users' requests would wait out, and a slice of many small parts
// costs far more than its size says (256 KB of 10,000-part message held it ~130 ms; 32 KB, ~15).
const SLICE = 32 * 1024;
async function feed(splitter: Splitter, source: Buffer): Promise<void> {
  let at = 0;
  for (; source.length - at > SLICE; at += SLICE) {
    splitter.write(source.subarray(at, at + SLICE));
    await turn();
  }
  splitter.end(source.subarray(at));
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function toPart(node: MimeNode): MimePart {
  const declared = node.headers && node.headers.get("Content-Type").length ? String(node.contentType || "") : "";
  return {
    part: "", type: contentType(node, declared),
    charset: node.charset || null, flowed: !!node.flowed, delSp: !!node.delSp,
    disposition: node.disposition || null, filename: node.filename || null,
    children: [], content: Buffer.alloc(0), message: null,
  };
}

/**
 * RFC 2046 §5.1.5: a part of multipart/digest without a Content-Type is message/rfc822.
 * RFC 2045 §5.2: no Content-Type, or one that is not type/subtype (`Content-Type: text`), means
 * text/plain. (mailsplit guesses from a file name first; that is kept.)
 */
function contentType(node: MimeNode, declared: string): string {
  if (!declared && node.parentNode && node.parentNode.multipart === "digest") return "message/rfc822";
  const type = String(node.contentType || "").toLowerCase();
  return TYPE.test(type) ? type : "text/plain";
}

export function decodeTransfer(raw: Buffer, encoding: string | false): Buffer {
  if (encoding === "base64") return Buffer.from(raw.toString("latin1"), "base64"); // lenient: skips line breaks and junk
  if (encoding === "quoted-printable") return libqp().decode(raw.toString("latin1"));
  return raw;
}

// RFC 9051 §6.4.5: the parts of a multipart are 1, 2, … below their parent's number; a message that
// is not multipart has its body as part 1. Inside an attached message (part N) numbering restarts
// below N, so its single body is N.1 and its parts N.1, N.2….
function number(part: MimePart, prefix: string, isRoot: boolean): void {
  if (part.type.startsWith("multipart/")) {
    part.part = prefix;
    part.children.forEach((c, i) => number(c, prefix ? `${prefix}.${i + 1}` : String(i + 1), false));
  } else {
    part.part = isRoot ? (prefix ? `${prefix}.1` : "1") : prefix;
  }
}

function emptyPart(prefix: string): MimePart {
  return {
    part: prefix ? `${prefix}.1` : "1", type: "text/plain", charset: null, flowed: false, delSp: false,
    disposition: null, filename: null, children: [], content: Buffer.alloc(0), message: null,
  };
}
