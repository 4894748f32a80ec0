// Reading header fields of a message we parsed ourselves (Reply-To, threading ids, and the From /
// Date / Subject of an attached message): unfolded, RFC 2047 words decoded, cleaned for a model.
import type { Headers } from "@zone-eu/mailsplit";
import { libmime } from "./libs.ts";
import addressparser from "nodemailer/lib/addressparser";
import { displayAddress, type Address } from "../read/display-addresses.ts";
import { firstMessageId, parseMessageIds } from "./message-ids.ts";
import { cleanLine } from "../content/sanitize.ts";

export interface HeaderView {
  /** The first field's value, unfolded and decoded, one clean line; null when absent or empty. */
  text(key: string): string | null;
  /** An address field (RFC 5322 §3.4): groups expanded into their members, names decoded. */
  addresses(key: string): Address[];
  inReplyTo(): string | null;
  references(): string[];
}

// A header field longer than this is cut before it is decoded or parsed: no real one comes close
// (References of a long thread is a few KB), and it bounds what a sender can make us work through.
const MAX_FIELD = 16 * 1024;

/** `headers`: a parsed message's (mailsplit), or a fetched block's (./header-block.ts). */
export function headerView(headers: Pick<Headers, "getFirst"> | false): HeaderView {
  const raw = (key: string) => (headers ? headers.getFirst(key).slice(0, MAX_FIELD) : "");
  return {
    text: (key) => cleanLine(decode(raw(key))) || null,
    addresses: (key) => addressField(raw(key)),
    inReplyTo: () => firstMessageId(raw("in-reply-to")),
    references: () => parseMessageIds(raw("references")),
  };
}

function decode(value: string): string {
  try {
    // Only a value with an encoded word loads libmime (and its charset tables: ./libs.ts).
    return value.includes("=?") ? libmime().decodeWords(value) : value;
  } catch {
    return value; // an unknown charset in an encoded word: keep the word as written
  }
}

/** An address field's value (RFC 5322 §3.4), unfolded: groups expanded into their members, names decoded. */
export function addressField(value: string): Address[] {
  if (!value) return [];
  return addressparser(value.slice(0, MAX_FIELD), { flatten: true })
    .map((a) => displayAddress(decode(a.name), a.address))
    .filter((a): a is Address => a !== null);
}
