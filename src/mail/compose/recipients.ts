// Recipient checks shared by the write tools (zod refinements) and the mail layer (defence in depth). Everything here runs before any byte leaves for the SMTP or IMAP server.
import addressparser from "nodemailer/lib/addressparser";
import { InputError } from "../errors.ts";

export interface Mailbox {
  name: string | null;
  address: string;
}

/** One message may go to at most this many recipients (to + cc + bcc), a guard against runaway loops. */
export const MAX_RECIPIENTS = 100;

// Dot-atom local part (RFC 5322 §3.4.1), ASCII only: quoted local parts ("a b"@x) are legal but so
// rare that accepting them costs more in injection surface than it gains, and a UTF-8 local part
// needs SMTPUTF8 (RFC 6531) on every hop, which most submission servers lack.
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// Host name labels; Unicode letters allowed so IDN addresses (EAI) pass. One label is enough:
// RFC 5322 §3.4.1 domain = dot-atom, so `bob@localhost` or `me@homelab` is an address (homelab and
// intranet mail servers deliver to such names, and the setup form accepts such a login).
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

/** True for a bare `local@domain` address a mail server will accept in RCPT TO. */
export function isValidAddress(address: string): boolean {
  if (address.length > 254) return false;
  const at = address.lastIndexOf("@");
  if (at < 1) return false;
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split(".");
  if (local.length > 64 || !LOCAL.test(local)) return false;
  if (labels.some((l) => !LABEL.test(l))) return false;
  return !/^\d+$/.test(labels.at(-1)!); // a numeric last label is a mistyped IP, not a host name
}

/**
 * Parses one recipient field. Each string may be `a@b.c`, `Name <a@b.c>`, or a comma list of those
 * (models often pass "a@x, b@y" as one string). Groups and line breaks are refused: a CR/LF in an
 * address is a header-injection attempt, and a group hides who actually receives the message.
 */
export function parseRecipients(argument: string, value: string | string[] | undefined): Mailbox[] {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  const out: Mailbox[] = [];
  for (const item of items) out.push(...parseOne(argument, item));
  return out;
}

function parseOne(argument: string, item: string): Mailbox[] {
  if (/[\x00-\x1f\x7f]/.test(item)) throw new InputError(argument, `address ${JSON.stringify(item)} contains a line break or control character`);
  const parsed = addressparser(item);
  if (!parsed.length) throw new InputError(argument, `empty address ${JSON.stringify(item)}`);
  return parsed.map((p) => {
    if (p.group) throw new InputError(argument, `group syntax is not supported (${JSON.stringify(item)}); list the addresses instead`);
    if (!isValidAddress(p.address)) throw new InputError(argument, `${JSON.stringify(p.address || item)} is not a valid email address (expected name@example.com or "Name <name@example.com>")`);
    return { name: p.name.trim() || null, address: p.address };
  });
}

export interface Recipients {
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
}

export interface RecipientFields {
  to?: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
}

/** Parses to/cc/bcc as given, any of them empty (a reply may take its addresses from the original). */
export function parseGivenRecipients(input: RecipientFields): Recipients {
  return { to: parseRecipients("to", input.to), cc: parseRecipients("cc", input.cc), bcc: parseRecipients("bcc", input.bcc) };
}

/** The final recipients of a message: `to` needs at least one address, and the total stays under the cap. */
export function checkRecipients(r: Recipients, noTo = "at least one recipient is required"): Recipients {
  if (!r.to.length) throw new InputError("to", noTo);
  const total = r.to.length + r.cc.length + r.bcc.length;
  if (total > MAX_RECIPIENTS) throw new InputError("to", `${total} recipients in to/cc/bcc; at most ${MAX_RECIPIENTS} are allowed per message`);
  return r;
}

/** Parses to/cc/bcc together: `to` needs at least one address, and the total stays under the cap. */
export function parseAllRecipients(input: RecipientFields): Recipients {
  return checkRecipients(parseGivenRecipients(input));
}

/** Every envelope recipient once, lower-cased domain untouched: what RCPT TO gets. */
export function envelopeRecipients(r: Recipients): string[] {
  const seen = new Set<string>();
  return [...r.to, ...r.cc, ...r.bcc].map((m) => m.address).filter((a) => {
    const key = a.toLowerCase();
    return seen.has(key) ? false : (seen.add(key), true);
  });
}
