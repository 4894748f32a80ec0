// imapflow's patched formatMessageResponse (tools.js: a FETCH item name that is a bare atom is its key
// without the compiler; the message id, an MD5 of path, UIDVALIDITY and UID, is computed when read)
// against the unpatched one on generated FETCH responses: the same message, key for key, the same id,
// the same mailbox state (uidNext, highestModseq). docs/performance.md "Patched dependencies".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";

import { forAll, PROPERTY_TIMEOUT, type Rng } from "../support/seeded.ts";
import { unpatchedCopy, type UnpatchedCopy } from "../support/unpatched.ts";
import { fetchLine, showLine, type ImapLine } from "./imap-lines.ts";
import { difference, outcome } from "./outcome.ts";

type Mailbox = { path?: string; uidValidity?: bigint; uidNext?: number; highestModseq?: bigint };
type Format = (untagged: unknown, mailbox: Mailbox) => Promise<Record<string, unknown>>;
type Parse = (payload: Buffer | string, options: { literals: Buffer[] }) => Promise<unknown>;

let copy: UnpatchedCopy;
let parse: Parse;
const format: Record<"unpatched" | "patched", Format> = {} as never;

beforeAll(async () => {
  copy = unpatchedCopy("imapflow");
  parse = (await import(join(copy.installedDir, "dist/esm/handler/imap-parser.js"))).default;
  format.unpatched = (await import(join(copy.dir, "dist/esm/tools.js"))).formatMessageResponse;
  format.patched = (await import(join(copy.installedDir, "dist/esm/tools.js"))).formatMessageResponse;
});
afterAll(() => copy?.remove());

type FetchCase = { line: ImapLine; mailbox: Mailbox };

function fetchCase(rng: Rng): FetchCase {
  const mailbox: Mailbox = {};
  if (rng.chance(0.95)) mailbox.path = rng.pick(["INBOX", "Sent Items", "Entwürfe", "日本語/メール", "", "&AOQ-"]);
  if (rng.chance(0.9)) mailbox.uidValidity = BigInt(rng.pick([1, 3857529045, rng.int(1e9)]));
  if (rng.chance(0.5)) mailbox.uidNext = rng.between(1, 6000);
  if (rng.chance(0.3)) mailbox.highestModseq = BigInt(rng.int(1e6));
  return { line: fetchLine(rng), mailbox };
}

/** A formatted message as its keys in order and their values, `id` read after the mailbox changed. */
async function formatted(side: "unpatched" | "patched", { line, mailbox }: FetchCase) {
  const state = { ...mailbox };
  const untagged = await parse(line.payload, { literals: [...(line.literals ?? [])] });
  const message = await format[side](untagged, state);
  const after = { ...state };
  // The id stands for the mailbox as it was when the message was formatted, however late it is read.
  state.path = "Elsewhere";
  state.uidValidity = 7n;
  return { keys: Object.keys(message), message: { ...message }, id: message.id, mailbox: after };
}

test("the same messages, ids and mailbox state as the unpatched formatMessageResponse", async () => {
  let withId = 0;
  const ran = await forAll({
    name: "imapflow formatMessageResponse",
    count: 10_000,
    generate: fetchCase,
    show: (c) => ({ line: showLine(c.line), mailbox: c.mailbox }),
    async check(input) {
      const before = await outcome(() => formatted("unpatched", input));
      if ("value" in before && (before.value as { id?: unknown }).id !== undefined) withId++;
      return difference(before, await outcome(() => formatted("patched", input)));
    },
  });
  expect(withId / ran).toBeGreaterThan(0.3);
}, PROPERTY_TIMEOUT);

test("the id is an own enumerable property, written over as before", async () => {
  const line = Buffer.from("* 3 FETCH (UID 42 FLAGS (\\Seen))");
  const message = await format.patched(await parse(line, { literals: [] }), { path: "Entwürfe", uidValidity: 9n });
  const upstream = await format.unpatched(await parse(line, { literals: [] }), { path: "Entwürfe", uidValidity: 9n });
  expect(JSON.stringify(message)).toBe(JSON.stringify(upstream));
  expect(Object.getOwnPropertyDescriptor(message, "id")?.enumerable).toBe(true);
  message.id = "mine";
  expect(message.id).toBe("mine");
});
