// Generated IMAP response values (RFC 9051 §4, §7): atoms, flags, numbers, quoted strings with
// escapes, literals and literal8, NIL in any case, sequence sets, nested lists, BODY[...]<...>
// sections, ENVELOPE and BODYSTRUCTURE. A value is written into a LineWriter, which keeps a literal's
// bytes either inline (how a caller of the parser may hand them) or apart, as ImapStream does.
import type { Rng } from "../support/seeded.ts";

export class LineWriter {
  text = "";
  literals: Buffer[] = [];
  constructor(readonly inlineLiterals: boolean) {}
  write(text: string): this {
    this.text += text;
    return this;
  }
  /** A literal marker and its bytes; `length` other than the bytes' is a lying server. */
  literal(bytes: Buffer, marker: string): this {
    this.text += marker;
    if (this.inlineLiterals) this.text += bytes.toString("latin1");
    else this.literals.push(bytes);
    return this;
  }
}

/** RFC 9051 ATOM-CHAR, every one of them. */
const ATOM_CHARS = [...Array(0x5e).keys()]
  .map((i) => String.fromCharCode(0x21 + i))
  .filter((c) => !'(){%*"\\]'.includes(c))
  .join("");
const EIGHT_BIT = ["é", "ü", "日本", "\u0131", "ß", "😀", "\u00a0", "\uFFFD", "\ud800"];
const ATOMS = ["FLAGS", "UID", "INBOX", "RFC822.SIZE", "ENVELOPE", "BODYSTRUCTURE", "X-GM-LABELS", "MODSEQ",
  "MESSAGES", "UIDNEXT", "UIDVALIDITY", "UNSEEN", "OK", "CAPABILITY", "IMAP4rev1", "IDLE", "CONDSTORE",
  "AUTH=PLAIN", "SASL-IR", "LITERAL+", "a.b-c", "<", "<x>", "~x", "~", "%", "%x", "1", "007", "12:30:00", "1,2", "9:"];
const NILS = ["NIL", "nil", "Nil", "nIL", "NIl", "n\u0131l", "NILL", "NI"];
export const FLAGS = ["\\Seen", "\\Answered", "\\Flagged", "\\Deleted", "\\Draft", "\\Recent", "\\*", "$Forwarded",
  "$MDNSent", "\\HasNoChildren", "\\HasChildren", "\\Sent", "\\Noselect", "\\Marked", "Junk", "$label1", "\\"];
const STRING_PIECES = ["a", "Z", "0", " ", "  ", '\\"', "\\\\", "\\a", "(", ")", "[", "]", "{", "}", "<", ">", "*",
  "%", "~", ",", ":", ".", "=?utf-8?q?caf=C3=A9?=", "é", "日本語", "😀", "\t", "NIL", "x".repeat(120)];
const SECTIONS = ["", "HEADER", "TEXT", "1", "1.2", "2.MIME", "1.2.HEADER", "1.2.TEXT", "HEADER.FIELDS (FROM)",
  "HEADER.FIELDS (FROM TO SUBJECT)", "1.2.HEADER.FIELDS (FROM)", "HEADER.FIELDS.NOT (X-SPAM \"Received\")", "3.1.4"];
const PARTIALS = ["", "", "<0>", "<0.100>", "<12>", "<100.2048>", "<1.>", "<.5>", "<0.0>", "<01>", "<5x>"];
const SEQUENCES = ["1", "*", "1:*", "2,4:7,9", "*:4", "1:2:3", "4:*,8", "10:20,30:40,50", "3,", "3:,4", "1,*", "*:*"];

export function atom(rng: Rng): string {
  if (rng.chance(0.5)) return rng.pick(ATOMS);
  const body = rng.text(ATOM_CHARS, rng.between(1, 12));
  return rng.chance(0.15) ? body + rng.pick(EIGHT_BIT) + rng.text(ATOM_CHARS, rng.int(3)) : body;
}

export function quoted(rng: Rng): string {
  return `"${rng.times(rng.int(6), () => rng.pick(STRING_PIECES)).join("")}"`;
}

export function number(rng: Rng): string {
  return rng.pick(["0", "1", "42", "4294967295", "4294967296", "00012", "99999999999999999999", String(rng.int(1e6))]);
}

/** A set of message numbers: mostly well-formed, long runs (what a SEARCH answers), some broken. */
export function sequenceSet(rng: Rng): string {
  if (rng.chance(0.5)) return rng.pick(SEQUENCES);
  const parts = rng.times(rng.between(1, 30), () => {
    const a = rng.between(1, 99999);
    return rng.chance(0.4) ? `${a}:${rng.chance(0.1) ? "*" : a + rng.int(500)}` : String(a);
  });
  return parts.join(",");
}

export function literal(rng: Rng, out: LineWriter): void {
  const bytes = Buffer.from(rng.pick(["", "a", "Hello\r\nWorld", "(\")]{3}\r\n", "\0\xff\xfe", "x".repeat(200), "é日"]), "latin1");
  const declared = rng.chance(0.9) ? bytes.length : bytes.length + rng.between(-1, 2);
  const plus = rng.chance(0.1) ? "+" : "";
  const eol = rng.pick(["\r\n", "\r\n", "\r\n", "\n", "", "\r"]);
  out.literal(bytes, `${rng.chance(0.1) ? "~" : ""}{${declared < 0 ? 0 : declared}${plus}}${eol}`);
}

/** BODY[section]<partial> and the like, as a FETCH item name or a key of a FETCH response. */
export function sectionItem(rng: Rng): string {
  const name = rng.pick(["BODY", "BODY.PEEK", "BINARY", "BINARY.PEEK", "body", "Binary", "RFC822", "BODYX"]);
  return `${name}[${rng.pick(SECTIONS)}]${rng.pick(PARTIALS)}`;
}

function nstring(rng: Rng, out: LineWriter): void {
  const w = rng.int(10);
  if (w < 5) out.write(quoted(rng));
  else if (w < 7) out.write(rng.pick(NILS));
  else literal(rng, out);
}

function address(rng: Rng, out: LineWriter): void {
  out.write("(");
  nstring(rng, out);
  out.write(" NIL ");
  nstring(rng, out);
  out.write(" ");
  nstring(rng, out);
  out.write(")");
}

export function envelope(rng: Rng, out: LineWriter): void {
  out.write('("Wed, 17 Jul 1996 02:23:25 -0700 (PDT)" ');
  nstring(rng, out);
  for (let i = 0; i < 6; i++) {
    out.write(" ");
    if (rng.chance(0.3)) out.write("NIL");
    else {
      out.write("(");
      for (let j = rng.between(1, 3); j > 0; j--) address(rng, out);
      out.write(")");
    }
  }
  out.write(' NIL "<B27397-0100000@cac.washington.edu>")');
}

export function bodystructure(rng: Rng, out: LineWriter, depth = 0): void {
  if (depth < 3 && rng.chance(0.4)) {
    out.write("(");
    for (let n = rng.between(1, 3); n > 0; n--) bodystructure(rng, out, depth + 1);
    out.write(` "${rng.pick(["MIXED", "alternative", "RELATED"])}" ("BOUNDARY" "b1") NIL NIL NIL)`);
    return;
  }
  out.write(`("${rng.pick(["TEXT", "image", "APPLICATION", "message"])}" "${rng.pick(["PLAIN", "html", "png", "RFC822"])}" `);
  out.write(rng.chance(0.5) ? '("CHARSET" "UTF-8" "NAME" "a.txt")' : "NIL");
  out.write(` NIL NIL "${rng.pick(["7BIT", "BASE64", "quoted-printable"])}" ${number(rng)}`);
  if (rng.chance(0.5)) out.write(` ${number(rng)}`);
  out.write(rng.chance(0.5) ? ' NIL ("attachment" ("FILENAME" "a.pdf")) NIL NIL)' : ")");
}

/** Any value, to `depth` more levels of nested lists. */
export function value(rng: Rng, out: LineWriter, depth: number): void {
  const w = rng.int(100);
  if (w < 22) out.write(atom(rng));
  else if (w < 32) out.write(number(rng));
  else if (w < 46) out.write(quoted(rng));
  else if (w < 52) literal(rng, out);
  else if (w < 58) out.write(rng.pick(NILS));
  else if (w < 64) out.write(rng.pick(FLAGS));
  else if (w < 70) out.write(sequenceSet(rng));
  else if (w < 76) out.write(sectionItem(rng));
  else if (depth > 0) list(rng, out, depth - 1, () => value(rng, out, depth - 1));
  else out.write(atom(rng));
}

/** A parenthesized list, with the odd spacing servers write (double spaces, none after a ')'). */
export function list(rng: Rng, out: LineWriter, depth: number, item = () => value(rng, out, depth)): void {
  out.write("(");
  const n = rng.int(5);
  for (let i = 0; i < n; i++) {
    if (i > 0) out.write(rng.pick([" ", " ", " ", "  ", ""]));
    item();
  }
  out.write(")");
}
