// The fields of a header block as IMAP returns `BODY.PEEK[HEADER.FIELDS (…)]`: in the order the
// message has them (RFC 3501 §6.4.5), unfolded (RFC 5322 §2.2.3). Order matters here: the topmost
// Authentication-Results is the one the receiving server added last (RFC 8601 §5).

/** Every value of the field `name` (case-insensitive), top first, unfolded and trimmed. */
export function headerFields(block: Buffer | string | undefined, name: string): string[] {
  if (!block) return [];
  const text = (typeof block === "string" ? block : block.toString("latin1")).replace(/\r?\n[ \t]+/g, " ");
  const prefix = `${name.toLowerCase()}:`;
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.slice(0, prefix.length).toLowerCase() === prefix) out.push(line.slice(prefix.length).trim());
  }
  return out;
}
