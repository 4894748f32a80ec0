// imapflow's patched command compiler (imap-compiler.js: text kept as text and encoded once per run,
// a synchronous walk) against the unpatched one on generated commands, with and without the logging
// and literal options: the same bytes, split into the same parts, and the same errors.
// docs/performance.md "Patched dependencies".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";

import { forAll, PROPERTY_TIMEOUT } from "../support/seeded.ts";
import { unpatchedCopy, type UnpatchedCopy } from "../support/unpatched.ts";
import { compilerCase, hasValuelessText, type CompilerCase } from "./imap-commands.ts";
import { difference, outcome } from "./outcome.ts";

type Compile = (response: unknown, options?: CompilerCase["options"]) => Promise<Buffer[]>;

let copy: UnpatchedCopy;
let unpatched: Compile;
let patched: Compile;

beforeAll(async () => {
  copy = unpatchedCopy("imapflow");
  const load = async (dir: string) => (await import(join(dir, "dist/esm/handler/imap-compiler.js"))).default as Compile;
  unpatched = await load(copy.dir);
  patched = await load(copy.installedDir);
});
afterAll(() => copy?.remove());

test("the same bytes and the same errors as the unpatched compiler on generated commands", async () => {
  let compiled = 0;
  let split = 0;
  const ran = await forAll({
    name: "imapflow command compiler",
    count: 40_000,
    generate: compilerCase,
    async check({ response, options }) {
      const before = await outcome(() => unpatched(response, options));
      if ("value" in before) {
        compiled++;
        if ((before.value as Buffer[]).length > 1) split++;
      }
      return difference(before, await outcome(() => patched(response, options)));
    },
  });
  // Both outcomes, and commands split at synchronizing literals, are exercised.
  expect(compiled / ran).toBeWithin(0.3, 0.95);
  expect(split / ran).toBeGreaterThan(0.005);
}, PROPERTY_TIMEOUT);

test("the log compile the patch skips (logging off) failed a command only for a STRING or LITERAL without a value", async () => {
  // imapflow compiled every command a second time for its log line, logger or not; the patch skips that
  // when nothing logs. Where the first compile succeeds, the second threw only for a valueless STRING or
  // LITERAL node (its length read for the log): such a command now goes out ("" or {0}) instead of
  // failing with a TypeError. docs/performance.md "Patched dependencies".
  let sendable = 0;
  let valueless = 0;
  const ran = await forAll({
    name: "imapflow log compile of commands",
    count: 20_000,
    generate: compilerCase,
    async check({ response, options }) {
      const wire = await outcome(() => unpatched(response, { ...options, isLogging: false, asArray: true }));
      if ("error" in wire) return null;
      sendable++;
      const log = await outcome(() => unpatched(response, { isLogging: true }));
      if ("value" in log) return null;
      valueless++;
      return hasValuelessText(response.attributes) ? null : `the log compile threw: ${Bun.inspect(log)}`;
    },
  });
  expect(sendable / ran).toBeGreaterThan(0.3);
  expect(valueless / ran).toBeGreaterThan(0.002);
}, PROPERTY_TIMEOUT);

test("a command with a literal compiles to the same parts, a continuation apart", async () => {
  // A plain reading of what the property checks, for a reader: APPEND with a synchronizing literal.
  const append = {
    tag: "A1",
    command: "APPEND",
    attributes: [{ type: "ATOM", value: "INBOX" }, [{ type: "ATOM", value: "\\Seen" }], { type: "LITERAL", value: "Subject: hi\r\n\r\nbody" }],
  };
  const parts = (await patched(append, { asArray: true })).map((p) => p.toString());
  expect(parts).toEqual(["A1 APPEND INBOX (\\Seen) {19}\r\n", "Subject: hi\r\n\r\nbody"]);
  expect(parts).toEqual((await unpatched(append, { asArray: true })).map((p) => p.toString()));
});
