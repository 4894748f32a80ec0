// The MCP server SDK's patched JSON-RPC type guards (each first looks for the members its strict schema
// requires or forbids, and parses only when they are there) against the unpatched guards on generated
// messages, valid and near-valid: the same answer from every guard. docs/performance.md "Patched
// dependencies".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";

import { forAll, PROPERTY_TIMEOUT } from "../support/seeded.ts";
import { unpatchedCopy, type UnpatchedCopy } from "../support/unpatched.ts";
import { jsonRpcValue, showValue } from "./jsonrpc-messages.ts";
import { difference, outcome } from "./outcome.ts";

/** Every guard the patch touches, and the two beside them it leaves alone. */
const GUARDS = ["isJSONRPCRequest", "isJSONRPCNotification", "isJSONRPCResultResponse", "isJSONRPCErrorResponse",
  "isJSONRPCResponse", "isInitializeRequest", "isInitializedNotification"] as const;
type Guards = Record<(typeof GUARDS)[number], (value: unknown) => boolean>;

let copy: UnpatchedCopy;
let unpatched: Guards;
let patched: Guards;

beforeAll(async () => {
  copy = unpatchedCopy("@modelcontextprotocol/server");
  unpatched = await import(join(copy.dir, "dist/index.mjs"));
  patched = await import(join(copy.installedDir, "dist/index.mjs"));
});
afterAll(() => copy?.remove());

const answers = (guards: Guards, value: unknown) => outcome(() => GUARDS.map((name) => guards[name](value)));

test("the same answer from every guard as the unpatched SDK on generated messages", async () => {
  const passed: number[] = GUARDS.map(() => 0);
  const ran = await forAll({
    name: "MCP SDK JSON-RPC type guards",
    count: 30_000,
    generate: jsonRpcValue,
    show: showValue,
    async check(value) {
      const before = await answers(unpatched, value);
      if ("value" in before) (before.value as boolean[]).forEach((yes, i) => yes && passed[i]!++);
      return difference(before, await answers(patched, value));
    },
  });
  // Each guard says yes as well as no: the generator reaches every kind of message.
  // (Each says yes to 2-16% of the values.)
  const rare = GUARDS.filter((_, i) => passed[i]! / ran < 0.01);
  expect(rare).toEqual([]);
}, PROPERTY_TIMEOUT);

test("a notification with an id for...in does not see is still left to the schema", () => {
  // What the property found in the first version of the patch (Object.hasOwn turned it away): the
  // strict schema looks for unknown members with for...in, which skips a non-enumerable one.
  const hidden = Object.defineProperty({ jsonrpc: "2.0", method: "notifications/initialized" }, "id", { value: 1, enumerable: false });
  expect(unpatched.isJSONRPCNotification(hidden)).toBe(true);
  expect(patched.isJSONRPCNotification(hidden)).toBe(true);
  expect(patched.isJSONRPCNotification({ jsonrpc: "2.0", method: "notifications/initialized", id: 1 })).toBe(false);
});
