// imapflow's patched response parser (token-parser.js: runs of string, atom and digit characters copied
// at once, ATOM-CHAR as a table, node types looked up, a synchronous tree walk) against the unpatched
// one on generated response lines, well-formed and broken: the same trees and the same errors.
// docs/performance.md "Patched dependencies".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";

import { forAll, PROPERTY_TIMEOUT } from "../support/seeded.ts";
import { unpatchedCopy, type UnpatchedCopy } from "../support/unpatched.ts";
import { headerFetchLine, imapLine, showLine, type ImapLine } from "./imap-lines.ts";
import { difference, outcome } from "./outcome.ts";

type Parse = (payload: Buffer | string, options?: { literals?: Buffer[] }) => Promise<unknown>;
type Compile = (response: unknown, options?: { isLogging?: boolean }) => Promise<Buffer[]>;

let copy: UnpatchedCopy;
const parsers: Record<"unpatched" | "patched", Parse> = {} as never;
const compilers: Record<"unpatched" | "patched", Compile> = {} as never;
let fastFetch: (payload: Buffer, options: { literals?: Buffer[] }) => unknown;

beforeAll(async () => {
  copy = unpatchedCopy("imapflow");
  for (const [side, dir] of [["unpatched", copy.dir], ["patched", copy.installedDir]] as const) {
    parsers[side] = (await import(join(dir, "dist/esm/handler/imap-parser.js"))).default;
    compilers[side] = (await import(join(dir, "dist/esm/handler/imap-compiler.js"))).default;
  }
  fastFetch = (await import(join(copy.installedDir, "dist/esm/handler/imap-parser.js"))).fastFetch;
});
afterAll(() => copy?.remove());

// ImapStream's literals are a queue the parser shifts: each side gets its own.
const parse = (side: "unpatched" | "patched", line: ImapLine) =>
  outcome(() => parsers[side](line.payload, line.literals ? { literals: [...line.literals] } : undefined));

test("the copy is the unpatched parser, the installed one the patched", async () => {
  const source = (dir: string) => Bun.file(join(dir, "dist/esm/handler/token-parser.js")).text();
  expect(await source(copy.dir)).not.toContain("isAtomChar");
  expect(await source(copy.installedDir)).toContain("isAtomChar");
});

test("same trees and same errors as the unpatched parser on generated response lines", async () => {
  let parsed = 0;
  const ran = await forAll({
    name: "imapflow response parser",
    count: 30_000,
    generate: imapLine,
    show: showLine,
    async check(line) {
      const unpatched = await parse("unpatched", line);
      const differs = difference(unpatched, await parse("patched", line));
      if (differs || !("value" in unpatched)) return differs;
      parsed++;
      // The patch skips compiling each response line for the log when nothing logs: that compile must
      // never have been what failed a line (it would now be skipped). Compiled back, with or without
      // logging, the tree gives the same bytes (or errors) through both compilers.
      const logLine = await outcome(() => compilers.unpatched(unpatched.value, { isLogging: true }));
      if ("error" in logLine) return `the unpatched log compile threw: ${Bun.inspect(logLine)}`;
      const logDiffers = difference(logLine, await outcome(() => compilers.patched(unpatched.value, { isLogging: true })));
      if (logDiffers) return `log compile: ${logDiffers}`;
      const wire = (side: "unpatched" | "patched") => outcome(() => compilers[side](unpatched.value));
      const wireDiffers = difference(await wire("unpatched"), await wire("patched"));
      return wireDiffers && `compile: ${wireDiffers}`;
    },
  });
  // Both outcomes are exercised: the generator is not only producing errors (or only trees).
  expect(parsed / ran).toBeWithin(0.3, 0.9);
}, PROPERTY_TIMEOUT);

test("header-field FETCH lines: the fast path (no token parser) gives the unpatched tree, or leaves the line to the token parser", async () => {
  let fast = 0;
  const ran = await forAll({
    name: "imapflow FETCH fast path",
    count: 20_000,
    generate: headerFetchLine,
    show: showLine,
    async check(line) {
      const unpatched = await parse("unpatched", line);
      const differs = difference(unpatched, await parse("patched", line));
      if (differs) return differs;
      const literals = [...(line.literals ?? [])];
      const tree = fastFetch(line.payload as Buffer, { literals });
      if (tree === null) return null;
      fast++;
      if (literals.length !== 0) return `the fast path left ${literals.length} literals in the queue`;
      return difference(unpatched, { value: tree });
    },
  });
  // The generator reaches the fast path often, and its near misses often enough.
  expect(fast / ran).toBeWithin(0.2, 0.8);
}, PROPERTY_TIMEOUT);

test("NIL is an atom of three letters in any case: no character upper-cases into N, I or L at another length", () => {
  // The patched parser checks an atom's length before upper-casing it: sound only if no character
  // becomes part of NIL at another length than its own (toUpperCase can lengthen a string: ß -> SS).
  const resized: string[] = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    const upper = char.toUpperCase();
    if (upper.length !== char.length && "NIL".includes(upper)) resized.push(char);
  }
  expect(resized).toEqual([]);
});
