// Generated inputs of imapflow's command compiler (handler/imap-compiler.js): a tag, a command and an
// attribute tree of what imapflow's commands build — atoms (flags, FETCH items with sections and
// partials), strings that need quoting or cannot be quoted, literals and literal8, sequence sets valid
// and not, numbers, Buffers, NIL, nested lists — and what only a careless caller would pass (CR/LF in a
// token, unknown node types), with the compiler's options (asArray, isLogging, LITERAL+/-).
import type { Rng } from "../support/seeded.ts";
import { sequenceSet } from "./imap-values.ts";

export type CompilerCase = {
  response: { tag?: unknown; command?: unknown; attributes?: unknown };
  options?: { asArray?: boolean; isLogging?: boolean; literalPlus?: boolean; literalMinus?: boolean };
};

const TEXTS = ["INBOX", "Sent Items", "", "a\"b\\c", "café", "日本語", "😀", "\ud800", "\udc00x", "x".repeat(101),
  "line\r\nbreak", "nul\0", "tab\there", "(", "[", "<", "\\Seen", "$Label", "a]b", "%", "*", "NIL", "{5}"];
const ATOM_VALUES = ["FETCH", "UID", "FLAGS", "BODY.PEEK", "BODY", "BINARY", "\\Seen", "\\Flagged", "$Forwarded",
  "RFC822.SIZE", "ENVELOPE", "HEADER.FIELDS", "(", "", "a b", "x\r\n", "\\", "\\*", "é", "CHARSET", "UTF-8", "1.2"];
const COMMANDS = ["FETCH", "UID FETCH", "UID SEARCH", "STORE", "SELECT", "APPEND", "LOGIN", "ID", "", "X\r\nY"];

function text(rng: Rng): string {
  return rng.chance(0.7) ? rng.pick(TEXTS) : rng.times(rng.between(1, 3), () => rng.pick(TEXTS)).join("");
}

function bytes(rng: Rng): Buffer {
  return rng.pick([Buffer.from(text(rng)), Buffer.from([0, 255, 13, 10]), Buffer.alloc(0), Buffer.from("(x)")]);
}

function num(rng: Rng): number {
  return rng.pick([0, 1, 42, -1, 1.5, 2.5, NaN, Infinity, 2 ** 53, 2 ** 60, 4294967295, rng.int(1e6)]);
}

function atomNode(rng: Rng, depth: number): Record<string, unknown> {
  const node: Record<string, unknown> = { type: rng.pick(["ATOM", "ATOM", "atom", "SECTION"]), value: rng.pick(ATOM_VALUES) };
  if (rng.chance(0.25)) node.section = rng.times(rng.int(4), () => tree(rng, depth - 1));
  if (rng.chance(0.2)) node.partial = rng.times(rng.between(1, 2), () => num(rng));
  if (rng.chance(0.05)) node.sensitive = true;
  return node;
}

function typedNode(rng: Rng, depth: number): unknown {
  switch (rng.int(9)) {
    case 0: case 1: return atomNode(rng, depth);
    case 2: return { type: rng.pick(["STRING", "string"]), value: rng.chance(0.8) ? text(rng) : rng.pick([bytes(rng), undefined, ""]), ...(rng.chance(0.1) ? { sensitive: true } : {}) };
    case 3: return { type: "LITERAL", value: rng.chance(0.6) ? text(rng) : rng.chance(0.8) ? bytes(rng) : rng.pick([undefined, null, ""]), ...(rng.chance(0.2) ? { isLiteral8: true } : {}), ...(rng.chance(0.05) ? { sensitive: true } : {}) };
    case 4: return { type: "SEQUENCE", value: rng.chance(0.8) ? sequenceSet(rng) : rng.pick(["$", "", "1:a", 7, 0, Buffer.from("1:5"), "1\r\n"]) };
    case 5: return { type: "TEXT", value: rng.pick(["some text", "", "a\r\nb", "é [x] (y)"]) };
    case 6: return { type: "NUMBER", value: rng.pick([num(rng), "12", "1e3", "x"]) };
    case 7: return { buffer: bytes(rng) };
    default: return { type: rng.pick(["UNKNOWN", "Atom", "literal"]), value: text(rng) };
  }
}

/** One node: a primitive, a typed node, or a list (lists of lists are written without spaces between). */
export function tree(rng: Rng, depth: number): unknown {
  const w = rng.int(100);
  if (w < 15) return text(rng);
  if (w < 22) return num(rng);
  if (w < 26) return bytes(rng);
  if (w < 30) return rng.pick([null, undefined, false, 0, ""]);
  if (w < 80 || depth <= 0) return typedNode(rng, depth);
  if (rng.chance(0.3)) return rng.times(rng.between(2, 3), () => rng.times(rng.int(3), () => tree(rng, depth - 2)));
  return rng.times(rng.int(5), () => tree(rng, depth - 1));
}

export function compilerCase(rng: Rng): CompilerCase {
  const response: CompilerCase["response"] = {};
  if (rng.chance(0.9)) response.tag = rng.pick(["A1", "*", "A0042", "", 5, 0, "A\r\n"]);
  if (rng.chance(0.9)) response.command = rng.pick(COMMANDS);
  if (rng.chance(0.95)) {
    response.attributes = rng.chance(0.9) ? rng.times(rng.int(6), () => tree(rng, 4)) : tree(rng, 3);
  }
  if (rng.chance(0.1)) return { response };
  return {
    response,
    options: { asArray: rng.chance(0.5), isLogging: rng.chance(0.35), literalPlus: rng.chance(0.2), literalMinus: rng.chance(0.2) },
  };
}

/** Whether a tree holds a STRING or LITERAL node without a value (not marked sensitive). */
export function hasValuelessText(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasValuelessText);
  if (typeof node !== "object" || node === null || Buffer.isBuffer(node)) return false;
  const { type, value, sensitive, section } = node as Record<string, unknown>;
  if (typeof type === "string" && ["STRING", "LITERAL"].includes(type.toUpperCase()) && value == null && !sensitive) return true;
  return Array.isArray(section) && section.some(hasValuelessText);
}
