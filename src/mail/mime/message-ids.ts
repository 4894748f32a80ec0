// Message identifiers (Message-ID, In-Reply-To, References) read from a message a sender wrote.
// They are copied into our own replies, so only what the msg-id grammar allows gets through:
// a raw header value such as `<id> Bcc: victim@x` yields `<id>`, never the rest.

// RFC 5322 §3.6.4: msg-id = "<" id-left "@" id-right ">", id-left = dot-atom-text,
// id-right = dot-atom-text / no-fold-literal ("[" *dtext "]"); atext per §3.2.3. Dots are taken
// loosely (`a..b`, a trailing dot): old mailers produce them and they cannot break a header.
const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~"; // and "-", last in the classes below
const ID_LEFT = `[${ATEXT}.-]+`;
const ID_RIGHT = `[${ATEXT}.-]+|\\[[\\x21-\\x5A\\x5E-\\x7E]*\\]`;
const MSG_ID = new RegExp(`<(?:${ID_LEFT})@(?:${ID_RIGHT})>`, "g");

// RFC 5322 §2.1.1: a line is at most 998 octets. An id cannot be folded, and "In-Reply-To: " takes
// 13 of them, so a longer id could never be written back into a header.
export const MAX_MESSAGE_ID_LENGTH = 985;

// How many ids a reply's References keeps. The thread's first id (its root) plus the newest ones
// are what threading needs; RFC 5537 §3.4.4 trims the same way (never the first id).
export const MAX_REFERENCES = 20;

/** The well-formed message ids in a header value, in order; anything else in it is ignored. */
export function parseMessageIds(value: string | undefined | null): string[] {
  if (!value) return [];
  return (value.match(MSG_ID) ?? []).filter((id) => id.length <= MAX_MESSAGE_ID_LENGTH);
}

/** The one message id of a Message-ID or In-Reply-To value, or null when there is none. */
export function firstMessageId(value: string | undefined | null): string | null {
  return parseMessageIds(value)[0] ?? null;
}

/**
 * A reply's References (RFC 5322 §3.6.4): the parent's ancestors then the parent, each once, at most
 * MAX_REFERENCES: the root and the newest ones. nodemailer folds the header between ids, so every
 * line stays under 998 octets.
 */
export function replyReferences(ancestors: readonly string[], parentId: string): string[] {
  const ids = [...new Set([...ancestors.filter((id) => id !== parentId), parentId])];
  if (ids.length <= MAX_REFERENCES) return ids;
  return [ids[0]!, ...ids.slice(ids.length - (MAX_REFERENCES - 1))];
}
