// A header block as IMAP returns `BODY.PEEK[HEADER.FIELDS (…)]` (RFC 3501 §6.4.5), read as the
// header view (./headers.ts) reads a parsed message's: find_contacts fetches only To/Cc/Bcc/Date or
// From/Date of thousands of messages and parses the addresses itself, which costs the server and
// imapflow's parser far less than building and walking nested ENVELOPE lists.
import type { Headers } from "@zone-eu/mailsplit";

/** Each field's first value, unfolded (RFC 5322 §2.2.3), by lower-case name. UTF-8: RFC 6532 allows raw UTF-8 names. */
export function headerBlock(block: Buffer | undefined): Pick<Headers, "getFirst"> {
  const first = new Map<string, string>();
  if (block) {
    for (const line of block.toString("utf8").replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      if (!first.has(key)) first.set(key, line.slice(colon + 1).trim());
    }
  }
  return { getFirst: (key: string) => first.get(key.toLowerCase()) ?? "" };
}
