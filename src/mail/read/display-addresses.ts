// Addresses as the model reads them, from the server's ENVELOPE (summaries) or from a header we
// parse ourselves (Reply-To). A careful mail client shows what the header said, never the
// placeholders an IMAP server puts where the header had nothing usable.
import { cleanLine } from "../content/sanitize.ts";

export interface Address {
  name: string | null;
  /** null when the header had no usable address (only a name, or a server placeholder). */
  address: string | null;
}

// RFC 3501 §7.4.2 (RFC 9051 §7.5.2) has no way to say "no domain", so servers fill the gaps of a
// malformed address with placeholders: Dovecot writes MISSING_MAILBOX / MISSING_DOMAIN; UW-IMAP's
// c-client (and servers built on it) .MISSING-HOST-NAME., .SYNTAX-ERROR., INVALID_ADDRESS,
// UNEXPECTED_DATA_AFTER_ADDRESS, MISSING_MAILBOX_TERMINATOR. A domain placeholder is caught by the
// syntax check below; these local parts are syntactically fine, so they are named.
const MAILBOX_PLACEHOLDERS = new Set(["MISSING_MAILBOX", "INVALID_ADDRESS", "UNEXPECTED_DATA_AFTER_ADDRESS", "MISSING_MAILBOX_TERMINATOR"]);

// A domain: LDH labels (Unicode letters for IDN) separated by dots, or a domain literal. "_", a
// leading or trailing dot, or an empty label are what placeholders look like, never a mail host.
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
const isDomain = (d: string) => /^\[[^\[\]\\\s]+\]$/.test(d) || (d.length > 0 && d.length <= 255 && d.split(".").every((l) => LABEL.test(l)));
const isLocalPart = (l: string) => l.length > 0 && l.length <= 256 && !/[\s<>]/.test(l) && !MAILBOX_PLACEHOLDERS.has(l);

/**
 * One address: `address` only when both sides are real; otherwise null, with the display name kept,
 * or (a header of only `foo`, which the server turns into foo@MISSING_DOMAIN) the local part as the
 * name. Null when nothing usable is left.
 */
export function displayAddress(rawName: string | null | undefined, rawAddress: string | null | undefined): Address | null {
  const name = rawName ? cleanLine(rawName) || null : null;
  const full = cleanLine(rawAddress ?? "");
  const at = full.lastIndexOf("@");
  const local = at < 0 ? full : full.slice(0, at);
  const domain = at < 0 ? "" : full.slice(at + 1);
  if (isLocalPart(local) && isDomain(domain)) return { name, address: full };
  const fallback = name ?? (isLocalPart(local) ? local : null);
  return fallback ? { name: fallback, address: null } : null;
}

/**
 * An ENVELOPE address list. A group (`IETF-Announce:;`, `team: a@x, b@y;`) arrives as its name with an
 * empty address followed by its members (imapflow drops the end marker): the members are kept as
 * ordinary recipients and the group's name is dropped, so an empty group leaves nothing.
 */
export function displayAddresses(list: ReadonlyArray<{ name?: string; address?: string }> | undefined): Address[] {
  return (list ?? [])
    .filter((a) => a.address) // group name entries carry no address at all
    .map((a) => displayAddress(a.name, a.address))
    .filter((a): a is Address => a !== null);
}

/** `Name <address>`, `address`, or `Name (no address)`: how the text blocks write an address. */
export function formatAddress(a: Address): string {
  if (!a.address) return `${a.name} (no address)`;
  return a.name ? `${a.name} <${a.address}>` : a.address;
}
