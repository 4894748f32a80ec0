// The spanning search's cursor (src/mail/read/search-span-cursor.ts) on its own: bound to the
// connection's mailboxes and the criteria, at most 200 folder marks in all (checked on decode even
// for a cursor this server sealed), and at that bound, with the longest paths, within the `cursor`
// argument's 400,000 characters.
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { InputError } from "../../../src/mail/errors.ts";
import { sealCursor } from "../../../src/mail/read/cursor-seal.ts";
import { MAX_SEARCHED_FOLDERS, queryKey, type FolderMark } from "../../../src/mail/read/search-cursor.ts";
import { decodeSpanCursor, encodeSpanCursor, spanSeal } from "../../../src/mail/read/search-span-cursor.ts";

const key = new Uint8Array(randomBytes(32));
const AB = [{ position: 0, account: "a@example.test" }, { position: 1, account: "b@example.test" }];
const criteria = { subject: "x" };
const q = queryKey(criteria);
const marks = (n: number, len = 10): FolderMark[] =>
  Array.from({ length: n }, (_, i) => ({ path: `${i}`.padStart(len, "f"), uidValidity: "4294967295", before: 4_294_967_295 }));

describe("the s3 cursor", () => {
  test("round-trips, a mailbox that never answered as null", () => {
    const c = { query: q, mailboxes: [marks(3), null] };
    expect(decodeSpanCursor(spanSeal(key, AB), encodeSpanCursor(spanSeal(key, AB), c), criteria, 2)).toEqual(c);
  });

  test("refused for other mailboxes (same count), another order, another count, another grant's key", () => {
    const text = encodeSpanCursor(spanSeal(key, AB), { query: q, mailboxes: [marks(1), marks(1)] });
    const refusedWith = (seal: ReturnType<typeof spanSeal>, count = 2) => expect(() => decodeSpanCursor(seal, text, criteria, count)).toThrow(InputError);
    refusedWith(spanSeal(key, [AB[0]!, { position: 1, account: "c@example.test" }]));
    refusedWith(spanSeal(key, [...AB].reverse()));
    refusedWith(spanSeal(key, AB), 3);
    refusedWith(spanSeal(new Uint8Array(randomBytes(32)), AB));
  });

  test("at most 200 marks across mailboxes, even sealed by the server", () => {
    const seal = spanSeal(key, AB);
    const tuples = (n: number) => marks(n).map((m) => [m.path, m.uidValidity, m.before]);
    const sealed = (a: number, b: number) => sealCursor(seal, "s3", JSON.stringify({ q, m: [tuples(a), tuples(b)] }));
    expect(decodeSpanCursor(seal, sealed(100, 100), criteria, 2).mailboxes.map((m) => m?.length)).toEqual([100, 100]);
    expect(() => decodeSpanCursor(seal, sealed(100, 101), criteria, 2)).toThrow(InputError);
  });

  test("at the bound, with 1000-character paths, it fits the cursor argument", () => {
    const longest = encodeSpanCursor(spanSeal(key, AB), { query: q, mailboxes: [marks(100, 1000), marks(MAX_SEARCHED_FOLDERS - 100, 1000)] });
    expect(longest.length).toBeLessThan(400_000);
  });
});
