// find_contacts reads its header fields with BlockFields (src/mail/read/contacts/block-fields.ts), a
// lean reading of what headerBlock (src/mail/mime/header-block.ts) reads: on generated blocks —
// names in any case, folded values (CRLF or bare LF, space or tab), repeated and empty fields, raw
// UTF-8, lines without a colon, a block cut short — both give the same value for every field asked.
import { expect, test } from "bun:test";
import { headerBlock } from "../../../src/mail/mime/header-block.ts";
import { BlockFields } from "../../../src/mail/read/contacts/block-fields.ts";
import { forAll, PROPERTY_TIMEOUT, type Rng } from "../../support/seeded.ts";

const NAMES = ["to", "cc", "bcc", "date", "from"];
const SPELLINGS = ["To", "TO", "to", "Cc", "CC", "Bcc", "Date", "DATE", "From", "X-To", "Tox", "Resent-To", "To ", " To", "T o", "Dáte"];
const VALUES = ["", " ", "a@x.example", "\"Zoë Ångström\" <zoe@x.example>", "team: a@x.example, b@x.example;", "Tue, 2 Jan 2024 10:00:00 +0000",
  "=?UTF-8?Q?Bj=C3=B6rn?= <b@x.example>", "x: y", "日本 <j@x.example>", "  padded  "];
const EOLS = ["\r\n", "\r\n", "\n"];

function block(rng: Rng): Buffer {
  let text = "";
  for (let n = rng.between(0, 6); n > 0; n--) {
    if (rng.chance(0.08)) text += rng.pick(["no colon here", ": empty name", "", " leading: space"]) + rng.pick(EOLS);
    text += `${rng.pick(SPELLINGS)}:${rng.chance(0.8) ? " " : ""}${rng.pick(VALUES)}`;
    for (let folds = rng.chance(0.3) ? rng.between(1, 2) : 0; folds > 0; folds--) text += `${rng.pick(EOLS)}${rng.pick([" ", "\t", "  "])}${rng.pick(VALUES)}`;
    text += rng.pick(EOLS);
  }
  if (rng.chance(0.9)) text += rng.pick(EOLS);
  if (rng.chance(0.1)) text = text.slice(0, rng.int(text.length + 1));
  return Buffer.from(text, "utf8");
}

test("the same values as headerBlock for every field asked", async () => {
  const fields = new BlockFields(NAMES);
  await forAll({
    name: "BlockFields against headerBlock",
    count: 20_000,
    generate: block,
    show: (b) => b.toString("utf8"),
    check(b) {
      fields.read(b);
      const expected = NAMES.map((n) => headerBlock(b).getFirst(n));
      return Bun.deepEquals(fields.values, expected) ? null : `BlockFields ${JSON.stringify(fields.values)}\nheaderBlock ${JSON.stringify(expected)}`;
    },
  });
}, PROPERTY_TIMEOUT);

test("a field found in one block is not left over for the next", () => {
  const fields = new BlockFields(["to", "date"]);
  fields.read(Buffer.from("To: a@x.example\r\nDate: Tue, 2 Jan 2024 10:00:00 +0000\r\n\r\n"));
  fields.read(Buffer.from("Date: Wed, 3 Jan 2024 10:00:00 +0000\r\n\r\n"));
  expect(fields.values).toEqual(["", "Wed, 3 Jan 2024 10:00:00 +0000"]);
});
