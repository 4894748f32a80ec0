// The setup form's send_as / signature fields parsed at the edge (src/oauth/setup/identity-fields.ts).
import { expect, test } from "bun:test";
import { parseIdentityFields } from "../../src/oauth/setup/identity-fields.ts";

test("one identity a line, Name <address> or address; blank fields keep what is stored (null)", () => {
  expect(parseIdentityFields(" Alice Work <alice@work.example>\n\ninfo@shop.example\r\n\"Q, Name\" <q@x.example>", "Alice\n")).toEqual({
    ok: true,
    settings: {
      sendAs: [{ name: "Alice Work", address: "alice@work.example" }, { name: null, address: "info@shop.example" }, { name: "Q, Name", address: "q@x.example" }],
      signature: "Alice",
    },
  });
  expect(parseIdentityFields("", "  ")).toEqual({ ok: true, settings: null });
  expect(parseIdentityFields(undefined, undefined)).toEqual({ ok: true, settings: null });
});

test("refused: not an address, more than 20, control characters, a signature over 4 KB", () => {
  expect(parseIdentityFields("not an address", "").ok).toBe(false);
  expect(parseIdentityFields("Name <bad>", "").ok).toBe(false);
  expect(parseIdentityFields(Array.from({ length: 21 }, (_, i) => `a${i}@x.example`).join("\n"), "").ok).toBe(false);
  expect(parseIdentityFields(Array.from({ length: 20 }, (_, i) => `a${i}@x.example`).join("\n"), "").ok).toBe(true);
  expect(parseIdentityFields("A\u0007 <a@x.example>", "").ok).toBe(false);
  expect(parseIdentityFields("", "sig\u0000").ok).toBe(false);
  expect(parseIdentityFields("", "x".repeat(4097)).ok).toBe(false);
  expect(parseIdentityFields("", "é".repeat(2048)).ok).toBe(true);
});
