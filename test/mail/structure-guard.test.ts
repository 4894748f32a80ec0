// The BODYSTRUCTURE guard (src/mail/imap/structure-guard.ts) on FETCH responses as imapflow's stream
// hands them over (the line, literals apart): what imapflow could not read, or not without a long
// stall, becomes NIL; everything else, and every other item of the response, is left as it was.
import { describe, expect, test } from "bun:test";
import { guardStructure, MAX_STRUCTURE_BYTES } from "../../src/mail/imap/structure-guard.ts";

const leaf = (name: string) => `("text" "plain" ("name" "${name}") NIL NIL "7bit" 1 1)`;
const nested = (depth: number) => "(".repeat(depth - 1) + leaf("a.txt") + ' "mixed")'.repeat(depth - 1);
const item = (line: string, literals: string[] = []) => ({ payload: Buffer.from(line, "latin1"), literals: literals.map((l) => Buffer.from(l)) });

describe("guardStructure", () => {
  test("an ordinary structure, and responses that are not FETCH, are left alone", () => {
    for (const line of [`* 1 FETCH (UID 1 BODYSTRUCTURE ${nested(3)} FLAGS (\\Seen))`, `* LIST () "/" "BODYSTRUCTURE ((((("`, "A1 OK done"]) {
      const i = item(line);
      expect(guardStructure(i)).toBe(false);
      expect(i.payload.toString("latin1")).toBe(line);
    }
  });

  test("deeper than imapflow reads: NIL, the other items kept, the word in a subject never taken for the key", () => {
    const i = item(`* 4 FETCH (UID 4 ENVELOPE (NIL "BODYSTRUCTURE ((((((" NIL NIL NIL NIL NIL NIL NIL NIL) BODYSTRUCTURE ${nested(30)} FLAGS (\\Seen))`);
    expect(guardStructure(i)).toBe(true);
    expect(i.payload.toString("latin1")).toBe(`* 4 FETCH (UID 4 ENVELOPE (NIL "BODYSTRUCTURE ((((((" NIL NIL NIL NIL NIL NIL NIL NIL) BODYSTRUCTURE NIL FLAGS (\\Seen))`);
  });

  test("10,000 levels (a hostile server): walked without recursion", () => {
    const i = item(`* 1 FETCH (UID 1 BODYSTRUCTURE ${nested(10_000)})`);
    expect(guardStructure(i)).toBe(true);
    expect(i.payload.toString("latin1")).toBe("* 1 FETCH (UID 1 BODYSTRUCTURE NIL)");
  });

  test("larger than MAX_STRUCTURE_BYTES: NIL; the literals inside it go, the message's own stays", () => {
    const parts = Array.from({ length: 2000 }, (_, n) => leaf(`part-${n}.txt`)).join("");
    const line = `* 2 FETCH (UID 2 BODY[HEADER.FIELDS (SUBJECT)] {9}\r\n BODYSTRUCTURE (("text" "plain" ("name" {6}\r\n) NIL NIL "7bit" 1 1)${parts} "mixed") BODY[] {5}\r\n)`;
    expect(line.length).toBeGreaterThan(MAX_STRUCTURE_BYTES);
    const i = item(line, ["Subject: x", "n.name", "hello"]);
    expect(guardStructure(i)).toBe(true);
    expect(i.payload.toString("latin1")).toBe("* 2 FETCH (UID 2 BODY[HEADER.FIELDS (SUBJECT)] {9}\r\n BODYSTRUCTURE NIL BODY[] {5}\r\n)");
    expect(i.literals.map(String)).toEqual(["Subject: x", "hello"]);
  });
});
