// find_contacts' counting (src/mail/read/contacts/tally.ts): an address is counted once per message
// however often the message names it (To and Cc, any case), with few addresses (looked back for)
// and with many (a Set); the newest name wins.
import { describe, expect, test } from "bun:test";
import { countMessage, keyed, type Tally } from "../../../src/mail/read/contacts/tally.ts";

const people = (n: number, domain = "x.example") => keyed(Array.from({ length: n }, (_, i) => ({ name: `P${i}`, address: `p${i}@${domain}` })));

describe("countMessage", () => {
  test("an address in To and again in Cc (another case) counts once for the message", () => {
    const tally: Tally = new Map();
    const to = keyed([{ name: "Bob", address: "bob@x.example" }, { name: null, address: "carol@x.example" }]);
    const cc = keyed([{ name: "Bobby", address: "BOB@x.example" }]);
    countMessage(tally, [to, cc, []], 1_000);
    countMessage(tally, [to, [], []], 2_000);
    expect(tally.get("bob@x.example")).toMatchObject({ count: 2, last: 2_000, name: "Bob" });
    expect(tally.get("carol@x.example")).toMatchObject({ count: 2, name: null });
  });

  test("with many addresses too (past the look-back), each once", () => {
    const tally: Tally = new Map();
    const many = people(20);
    countMessage(tally, [many, many.slice(0, 5), keyed([{ name: null, address: "P3@X.EXAMPLE" }])], 5);
    expect(tally.size).toBe(20);
    expect([...tally.values()].every((t) => t.count === 1)).toBe(true);
  });

  test("addresses without one are not counted; the newest named message gives the name", () => {
    const tally: Tally = new Map();
    expect(keyed([{ name: "Only a name", address: null }])).toEqual([]);
    countMessage(tally, [keyed([{ name: "Old", address: "z@x.example" }])], 10);
    countMessage(tally, [keyed([{ name: "New", address: "z@x.example" }])], 20);
    countMessage(tally, [keyed([{ name: "Older still", address: "z@x.example" }])], 5);
    expect(tally.get("z@x.example")).toMatchObject({ count: 3, name: "New", last: 20 });
  });
});
