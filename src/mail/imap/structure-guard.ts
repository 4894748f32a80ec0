// A BODYSTRUCTURE (RFC 9051 §7.5.2) that imapflow cannot read, or not without stalling the event
// loop, is replaced by NIL before imapflow parses the FETCH response (docs/decisions.md "A hostile
// mail server"):
// - deeper than MAX_STRUCTURE_DEPTH lists: imapflow's parser refuses more than 25 levels of
//   nesting in a response and drops the whole line, so the message vanished from every listing
//   and get_email said it might have been deleted;
// - longer than MAX_STRUCTURE_BYTES: a message with 10,000 parts has a ~1 MB BODYSTRUCTURE, which
//   imapflow parses in one piece (0.5-3 s of one core here, no other request served meanwhile).
// The message then arrives without bodyStructure, as if the server had answered NIL (which
// imapflow accepts); readers take its parts from the message's own MIME instead
// (../read/attachment-list.ts, ../read/attachment/from-source.ts). Only the response's own syntax
// is walked: a subject containing the word BODYSTRUCTURE is a quoted string or a literal, never a key.

/** Longest BODYSTRUCTURE given to imapflow: some 500 parts. Real mail stays far below. */
export const MAX_STRUCTURE_BYTES = 64 * 1024;
/** Deepest BODYSTRUCTURE given to imapflow, in nested lists: its limit for a whole line is 25. */
export const MAX_STRUCTURE_DEPTH = 20;

const SP = 0x20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x28;
const CLOSE = 0x29;
const BRACE = 0x7b;
const KEY = Buffer.from("BODYSTRUCTURE");
const FETCH = /^\* \d+ FETCH \(/i;

/** One FETCH response as imapflow's stream hands it on: the line, its literals apart. */
export interface ResponseItem {
  payload: Buffer;
  literals?: Buffer[];
}

/** Replaces an unreadable BODYSTRUCTURE by NIL in place; true when it did. */
export function guardStructure(item: ResponseItem): boolean {
  const { payload } = item;
  const head = FETCH.exec(payload.toString("latin1", 0, 32));
  if (!head || payload.indexOf(KEY) < 0) return false;
  const scan = new Scanner(payload);
  let at = head[0].length;
  while (at < payload.length && payload[at] !== CLOSE) {
    const keyStart = at;
    const keyEnd = scan.atomEnd(at);
    if (keyEnd === at) return false; // not the syntax we expect: leave the line to imapflow
    const valueStart = keyEnd + 1;
    const literalsBefore = scan.literals;
    const value = scan.valueEnd(valueStart);
    if (value === null) return false;
    if (isKey(payload, keyStart, keyEnd) && (value.end - valueStart > MAX_STRUCTURE_BYTES || value.depth > MAX_STRUCTURE_DEPTH)) {
      item.payload = Buffer.concat([payload.subarray(0, valueStart), Buffer.from("NIL"), payload.subarray(value.end)]);
      item.literals?.splice(literalsBefore, scan.literals - literalsBefore);
      return true;
    }
    at = value.end;
    while (payload[at] === SP) at++;
  }
  return false;
}

const isKey = (b: Buffer, start: number, end: number) => end - start === KEY.length && b.subarray(start, end).equals(KEY);

/** Walks IMAP values (RFC 9051 §4): atoms, quoted strings, literals and lists, counting literals. */
class Scanner {
  literals = 0;

  constructor(private readonly b: Buffer) {}

  /** The end of an atom, or of a key such as BODY[1.2]<0.100> (brackets may hold spaces). */
  atomEnd(at: number): number {
    let i = at;
    let bracket = 0;
    for (; i < this.b.length; i++) {
      const c = this.b[i]!;
      if (c === 0x5b) bracket++;
      else if (c === 0x5d) bracket--;
      else if (bracket <= 0 && (c === SP || c === OPEN || c === CLOSE || c === QUOTE || c === BRACE)) break;
    }
    return i;
  }

  /** The end of the value at `at` and its depth in lists; null when the line ends first. */
  valueEnd(at: number): { end: number; depth: number } | null {
    let depth = 0;
    let deepest = 0;
    let i = at;
    while (i < this.b.length) {
      const c = this.b[i]!;
      if (c === OPEN) {
        deepest = Math.max(deepest, ++depth);
        i++;
      } else if (c === CLOSE) {
        depth--;
        i++;
      } else if (c === QUOTE) {
        i = this.quotedEnd(i);
      } else if (c === BRACE) {
        i = this.literalEnd(i);
      } else if (c === SP) {
        i++;
      } else {
        i = Math.max(this.atomEnd(i), i + 1);
      }
      if (depth <= 0 && (c !== SP || depth < 0)) return depth < 0 ? null : { end: i, depth: deepest };
    }
    return null;
  }

  private quotedEnd(at: number): number {
    let i = at + 1;
    while (i < this.b.length && this.b[i] !== QUOTE) i += this.b[i] === BACKSLASH ? 2 : 1;
    return i + 1;
  }

  /** A literal's marker {n}CRLF: its octets are not in the line (they travel apart). */
  private literalEnd(at: number): number {
    const close = this.b.indexOf("}", at);
    if (close < 0) return this.b.length;
    this.literals++;
    let i = close + 1;
    if (this.b[i] === 0x0d) i++;
    if (this.b[i] === 0x0a) i++;
    return i;
  }
}
