// A registered client's self-declared name (RFC 7591 client_name), made fit to show on the setup page.
// Anyone can register under any name, and a name can carry the page's own sentence ("returning to
// claude.ai … ✓ Verified app"): shown as written, it passed for the page's words (docs/oauth.md §9).
// So the page shows it only inside its own quotation marks, in a box of its own (setup-form.tsx), and
// the name is first made unable to close those quotes or run on like a sentence:
// - every quotation mark (straight, curly, angle, CJK corner, full-width) becomes a plain apostrophe,
//   which cannot read as the end of the page's double quotes;
// - runs of white space become one space;
// - at most 64 characters (code points), cut with an ellipsis: room for a product name, not for a
//   paragraph. Registration already removed control, bidi and invisible characters (≤ 100 characters).

export const DECLARED_NAME_MAX = 64;

/** Quotation marks: ASCII " and `, the initial/final punctuation classes (“ ” ‘ ’ « » ‹ ›), low-9 marks, CJK and full-width ones. */
const QUOTES = /["`\p{Pi}\p{Pf}\u201a\u201e\u300c-\u300f\u301d-\u301f\ufe41-\ufe44\uff02\uff07]/gu;

export function declaredName(name: string): string {
  const plain = name.replace(QUOTES, "'").replace(/\s+/g, " ").trim();
  const chars = Array.from(plain);
  return chars.length <= DECLARED_NAME_MAX ? plain : `${chars.slice(0, DECLARED_NAME_MAX - 1).join("").trimEnd()}…`;
}
