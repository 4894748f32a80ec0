// The MCP server SDK's patched default JSON Schema validator (ajv and ajv-formats loaded on the first
// schema validated, not by every process importing the server) against the unpatched one: the same
// verdicts and error texts on generated values, the same errors for schemas it cannot take.
// docs/performance.md "Patched dependencies".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";

import { forAll, PROPERTY_TIMEOUT, type Rng } from "../support/seeded.ts";
import { unpatchedCopy, type UnpatchedCopy } from "../support/unpatched.ts";
import { difference, outcome } from "./outcome.ts";

type Validator = { ajv: unknown; getValidator(schema: object): (input: unknown) => unknown };
type ValidatorClass = new (ajv?: unknown) => Validator;

let copy: UnpatchedCopy;
const validators: Record<"unpatched" | "patched", ValidatorClass> = {} as never;

beforeAll(async () => {
  copy = unpatchedCopy("@modelcontextprotocol/server");
  // The shim by path: the index imports it by package name, which leads to the installed package.
  validators.unpatched = (await import(join(copy.dir, "dist/shimsNode.mjs"))).DefaultJsonSchemaValidator;
  validators.patched = (await import(join(copy.installedDir, "dist/shimsNode.mjs"))).DefaultJsonSchemaValidator;
});
afterAll(() => copy?.remove());

/** Schemas as an elicitation carries them, in each dialect the validator knows, and one it does not. */
const SCHEMAS: object[] = [
  { type: "object", properties: { name: { type: "string", minLength: 2 }, age: { type: "integer", minimum: 0 } }, required: ["name"] },
  { type: "object", properties: { email: { type: "string", format: "email" }, when: { type: "string", format: "date-time" } } },
  { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { n: { type: "number", maximum: 10 } }, additionalProperties: false },
  { $schema: "https://json-schema.org/draft/2019-09/schema", type: "array", items: { enum: ["a", "b", 1] }, maxItems: 2 },
  { type: "string", pattern: "^[a-z]+$", format: "uri" },
  { $schema: "http://example.com/unknown-dialect", type: "string" },
];

function value(rng: Rng): unknown {
  const leaf = () => rng.pick<unknown>(["", "ab", "x", "a@b.co", "not mail", "2026-11-25T23:00:00Z", "https://a.b/c", 0, -1, 1.5, 11, true, null, "a", "b", 1]);
  if (rng.chance(0.4)) return leaf();
  if (rng.chance(0.3)) return rng.times(rng.int(4), leaf);
  const keys = ["name", "age", "email", "when", "n", "extra"];
  return Object.fromEntries(rng.times(rng.int(4), () => [rng.pick(keys), leaf()]));
}

test("the same verdicts and error texts as the unpatched validator", async () => {
  const engines = { unpatched: new validators.unpatched(), patched: new validators.patched() };
  const check = (side: "unpatched" | "patched", schema: object, input: unknown) =>
    outcome(() => engines[side].getValidator(schema)(input));
  await forAll({
    name: "MCP SDK default JSON Schema validator",
    count: 3_000,
    generate: (rng) => ({ schema: rng.pick(SCHEMAS), input: value(rng) }),
    async check({ schema, input }) {
      return difference(await check("unpatched", schema, input), await check("patched", schema, input));
    },
  });
}, PROPERTY_TIMEOUT);

test("the engine is built when a schema is first validated; the ajv getter and a caller's engine as before", () => {
  const validator = new validators.patched();
  expect("__impl" in validator).toBe(false);
  validator.getValidator(SCHEMAS[0]!);
  expect("__impl" in validator).toBe(true);
  expect(typeof (validator.ajv as { compile?: unknown }).compile).toBe("function");
  const own = new validators.unpatched().ajv;
  const schema = SCHEMAS[0]!;
  const verdict = (v: Validator) => v.getValidator(schema)({ name: "x" });
  expect(verdict(new validators.patched(own))).toEqual(verdict(new validators.unpatched(own)));
});
