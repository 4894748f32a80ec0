// find_contacts reads fetched header fields itself (src/mail/mime/header-block.ts, addressField in
// src/mail/mime/headers.ts): folded fields, the first of a repeated field, raw UTF-8 and encoded
// names, groups, and a field that is absent.
import { describe, expect, test } from "bun:test";
import { headerBlock } from "../../../src/mail/mime/header-block.ts";
import { addressField } from "../../../src/mail/mime/headers.ts";

const block = Buffer.from([
  "To: \"Zoë Ångström\" <zoe@accents.example>,",
  "\tteam: a@x.example, =?UTF-8?Q?Bj=C3=B6rn?= <b@x.example>;",
  "CC: carol@c.example",
  "Cc: second@c.example",
  "Date: Tue, 2 Jan 2024 10:00:00 +0000",
  "",
  "",
].join("\r\n"), "utf8");

describe("header fields fetched with BODY.PEEK[HEADER.FIELDS]", () => {
  test("fields unfolded, by any case, the first of a repeated one; absent is empty", () => {
    const h = headerBlock(block);
    expect(h.getFirst("cc")).toBe("carol@c.example");
    expect(h.getFirst("TO")).toContain("team: a@x.example");
    expect(Date.parse(h.getFirst("date"))).toBe(Date.UTC(2024, 0, 2, 10));
    expect(h.getFirst("bcc")).toBe("");
    expect(headerBlock(undefined).getFirst("to")).toBe("");
  });

  test("addresses: raw UTF-8 and encoded names decoded, group members kept", () => {
    expect(addressField(headerBlock(block).getFirst("to"))).toEqual([
      { name: "Zoë Ångström", address: "zoe@accents.example" },
      { name: null, address: "a@x.example" },
      { name: "Björn", address: "b@x.example" },
    ]);
    expect(addressField("")).toEqual([]);
  });
});
