// The few fields find_contacts reads from a header block (RFC 5322 §2.2: "name: value" lines, a
// line starting with white space continuing the one before, §2.2.3), read for thousands of messages
// per call: one string per block, the values sliced out of it, nothing else built per line. What
// ../../mime/header-block.ts gives for the same block (first value of each field, unfolded,
// trimmed; UTF-8 as RFC 6532 allows), without its per-line strings, regular expressions and map.

const SP = 32;
const TAB = 9;

/** Reads blocks into `values`: for each of `names` (lower case), its first value, "" when absent. */
export class BlockFields {
  readonly values: string[];
  /** Which fields were seen in this block: the first is kept even when empty. */
  private readonly seen: boolean[];

  constructor(private readonly names: readonly string[]) {
    this.values = names.map(() => "");
    this.seen = names.map(() => false);
  }

  read(block: Buffer): void {
    this.values.fill("");
    this.seen.fill(false);
    const text = block.toString("utf8");
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf("\n", start);
      // A field's continuation lines are part of it.
      while (end >= 0 && isWhite(text.charCodeAt(end + 1))) end = text.indexOf("\n", end + 1);
      if (end < 0) end = text.length;
      this.field(text, start, end);
      start = end + 1;
    }
  }

  private field(text: string, start: number, end: number): void {
    // Line ends too: a folded line after an empty one (a block cut oddly) joins it, as in header-block.ts.
    while (start < end && (isWhite(text.charCodeAt(start)) || text.charCodeAt(start) === 13 || text.charCodeAt(start) === 10)) start++;
    const colon = text.indexOf(":", start);
    if (colon <= start || colon >= end) return;
    let nameEnd = colon;
    while (nameEnd > start && isWhite(text.charCodeAt(nameEnd - 1))) nameEnd--;
    const i = this.names.findIndex((n) => sameName(text, start, nameEnd, n));
    if (i < 0 || this.seen[i]) return;
    this.seen[i] = true;
    const raw = text.slice(colon + 1, end);
    this.values[i] = (raw.includes("\n") ? raw.replace(/\r?\n[ \t]+/g, " ") : raw).trim();
  }
}

const isWhite = (c: number) => c === SP || c === TAB;

/** text[start, end) is `name` (lower case) in any ASCII case. */
function sameName(text: string, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) {
    let c = text.charCodeAt(start + i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== name.charCodeAt(i)) return false;
  }
  return true;
}
