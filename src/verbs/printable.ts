// What the owner's verbs print comes partly from apps and senders: folder names, recipients and
// error lines an app's calls carried, the mailbox address typed on the setup form, a registered
// client's self-declared name. A terminal obeys control sequences in what it prints: an app erased
// its own send_email line from `mailbox-mcp activity` with ESC sequences in a later call's folder
// name, and `grants` carried raw ESC bytes from a mailbox label (docs/owner.md §1, §4). So every line of
// text output shows such characters as escapes instead; `--json` stays exact (JSON escapes C0
// itself, and a program reading it wants the real value).
//
// Escaped, by Unicode property so that nothing is forgotten as Unicode grows:
// - Cc: C0 controls (ESC, BEL, CR, LF, TAB, BS…), DEL and the C1 controls (0x80–0x9F: a lone 0x9B is
//   a CSI in many terminals);
// - Cf: format characters, among them every bidi control (U+061C, U+200E–F, U+202A–E, U+2066–9), which
//   can make a line read in another order than it is written, zero-width characters and tags;
// - Zl, Zp: the line and paragraph separators;
// - Default_Ignorable_Code_Point: what renders as nothing (variation selectors, Hangul fillers…);
// - Cs: lone surrogates.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Cs}]/gu;

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** `\x1b`, `\u202e`, `\u{e0041}`: a character shown as its code, the way JavaScript would write it. */
function escape(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp <= 0xff) return `\\x${hex(cp, 2)}`;
  return cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\u{${cp.toString(16)}}`;
}

/** `text` with every character a terminal would act on, or that shows as nothing, written as an escape. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escape);
}

/** Lines of text output: each made printable, then joined, so no value can start a line of its own. */
export function printableLines(lines: string[]): string {
  return lines.map(printable).join("\n");
}
