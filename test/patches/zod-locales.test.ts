// zod's patched locales (each loaded on first use instead of all 63 at import) against the unpatched
// zod: the same `locales` keys in the same order and shape, the same messages in every locale, English
// by default. docs/performance.md "Patched dependencies".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import * as zod from "zod";
import * as zodMini from "zod/mini";

import { unpatchedCopy, type UnpatchedCopy } from "../support/unpatched.ts";

type Zod = typeof zod;

let copy: UnpatchedCopy;
/** The unpatched zod, a second instance: its schemas and locales are its own, its configuration is not
 * (zod keeps it on globalThis, and importing it sets its own English). */
let upstream: Zod;
let upstreamMini: typeof zodMini;
/** The installed zod's messages as it configured itself, before the unpatched one was imported. */
let englishAtImport: unknown;

beforeAll(async () => {
  englishAtImport = messages(zod);
  copy = unpatchedCopy("zod");
  upstream = await import(join(copy.dir, "index.js"));
  upstreamMini = await import(join(copy.dir, "mini/index.js"));
});
afterAll(() => {
  zod.config(zod.locales.en());
  copy?.remove();
});

/** Failing parses that raise each kind of issue a locale has words for. */
function failures(z: Zod): Array<[zod.ZodType, unknown]> {
  return [
    [z.string(), 1], [z.number(), "1"], [z.array(z.string()), {}], [z.boolean(), null], [z.date(), "x"],
    [z.string().min(3), "ab"], [z.string().max(1), "ab"], [z.string().length(2), "a"], [z.array(z.number()).min(2), [1]],
    [z.number().gt(5), 5], [z.number().lte(5), 6], [z.bigint().min(2n), 1n], [z.number().multipleOf(3), 4],
    [z.email(), "not-mail"], [z.url(), "nope"], [z.uuid(), "x"], [z.string().regex(/^a+$/), "b"], [z.iso.datetime(), "x"],
    [z.string().startsWith("ab"), "x"], [z.enum(["a", "b"]), "c"], [z.literal("x"), "y"], [z.union([z.string(), z.number()]), true],
    [z.strictObject({ a: z.string() }), { a: "", b: 1 }], [z.record(z.enum(["k"]), z.number()), { j: 1 }],
    [z.object({ a: z.object({ b: z.int() }) }), { a: { b: 1.5 } }], [z.set(z.string()).max(0), new Set(["a"])],
    [z.custom(() => false), 1], [z.string().refine(() => false), "x"], [z.file(), "x"], [z.templateLiteral(["a", z.number()]), "ab"],
  ];
}

const messages = (z: Zod) => failures(z).map(([schema, input]) => schema.safeParse(input).error?.issues.map((i) => i.message));

/** Messages with a locale set through z.config, put back to English at once (zod's config is global). */
function messagesIn(z: Zod, locale: string): unknown {
  z.config((z.locales as unknown as Record<string, () => zod.core.$ZodConfig>)[locale]!());
  try {
    return messages(z);
  } finally {
    z.config(z.locales.en());
  }
}

test("the copy is the unpatched zod, the installed one the patched", () => {
  expect(Object.getOwnPropertyDescriptor(upstream.locales, "de")?.get).toBeUndefined();
  expect(Object.getOwnPropertyDescriptor(zod.locales, "de")?.get).toBeFunction();
});

test("locales: the same keys in the same order, shaped as the module namespace they were", () => {
  const pairs: Array<[object, object]> = [
    [zod.locales, upstream.locales], [zod.core.locales, upstream.core.locales], [zodMini.locales, upstreamMini.locales],
  ];
  for (const [patched, unpatched] of pairs) {
    expect(Object.keys(patched)).toEqual(Object.keys(unpatched));
    expect(Object.prototype.toString.call(patched)).toBe(Object.prototype.toString.call(unpatched));
    // No Object.prototype behind either (Bun gives a namespace an empty prototype of its own, not null).
    expect("hasOwnProperty" in patched).toBe("hasOwnProperty" in unpatched);
    expect(Object.isExtensible(patched)).toBe(Object.isExtensible(unpatched));
    expect(() => Object.assign(patched, { de: () => ({}) })).toThrow();
  }
  expect(Object.keys(zod.locales).length).toBeGreaterThan(60);
});

test("English by default, word for word as before", () => {
  expect(englishAtImport).toEqual(messages(upstream));
  expect((englishAtImport as string[][])[0]).toEqual(["Invalid input: expected string, received number"]);
});

test("every locale says what it said before, through z.config", () => {
  const differing = Object.keys(upstream.locales).filter(
    (locale) => !Bun.deepEquals(messagesIn(zod, locale), messagesIn(upstream, locale), true),
  );
  expect(differing).toEqual([]);
  const german = messagesIn(zod, "de") as string[][];
  expect(german[0]).toEqual(["Ungültige Eingabe: erwartet string, erhalten Zahl"]);
  // And back to English: the configuration each locale was set through is put back.
  expect(messages(zod)[0]).toEqual(["Invalid input: expected string, received number"]);
});
