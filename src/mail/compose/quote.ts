// What a reply or an inline forward adds below the new text, as mail clients write it: for a reply
// the attribution line and the original `>`-quoted (RFC 3676 §4.5 quote marks), in HTML a
// `<blockquote type="cite">`; for a forward the "Forwarded message" header block and the original's
// text. The original's body is the readable text get_email would show (HTML already turned into
// text), escaped into the HTML part: a sender's markup never reaches our HTML (docs/decisions.md "Composing").
import { formatAddress, type Address } from "../read/display-addresses.ts";

/** The original message as quoting needs it: its readable text and a few header values. */
export interface QuotedSource {
  from: Address | null;
  to: Address[];
  cc: Address[];
  /** ISO 8601, or null when the original had no usable date. */
  date: string | null;
  subject: string;
  bodyText: string;
  /** The body was cut (a very long original): a `[…]` line says so. */
  truncated: boolean;
}

/** A block to append to the new text and, when there is an HTML part, to the HTML. */
export interface Addition {
  text: string;
  html: string;
}

export interface BodyParts {
  text?: string;
  html?: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** "Sat, 21 Nov 2026 at 14:00 UTC": the person's time zone is not known here, so UTC, said. */
export function formatDate(iso: string | null): string {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return "an unknown date";
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} at ${hh}:${mm} UTC`;
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const htmlLines = (text: string) => escapeHtml(text).replace(/\r?\n/g, "<br>\n");
const who = (a: Address | null) => (a ? formatAddress(a) : "an unknown sender");
const body = (q: QuotedSource) => q.bodyText.replace(/\s+$/, "") + (q.truncated ? "\n[…]" : "");

/** RFC 3676 §4.5: a quoted line gets ">" and a space; an already quoted one only another ">". */
export function quoteLines(text: string): string {
  return text.split(/\r?\n/).map((line) => (line === "" ? ">" : line.startsWith(">") ? `>${line}` : `> ${line}`)).join("\n");
}

export function replyQuote(q: QuotedSource): Addition {
  const attribution = `On ${formatDate(q.date)}, ${who(q.from)} wrote:`;
  return {
    text: `${attribution}\n${quoteLines(body(q))}`,
    html:
      `<div>${escapeHtml(attribution)}</div>\n` +
      `<blockquote type="cite" style="margin:0 0 0 0.8ex;border-left:1px solid #ccc;padding-left:1ex">${htmlLines(body(q))}</blockquote>`,
  };
}

export function forwardBlock(q: QuotedSource, withBody: boolean): Addition {
  const fields: Array<[string, string]> = [
    ["From", who(q.from)],
    ["Date", formatDate(q.date)],
    ["Subject", q.subject || "(no subject)"],
    ["To", q.to.map(formatAddress).join(", ")],
    ["Cc", q.cc.map(formatAddress).join(", ")],
  ];
  const head = ["---------- Forwarded message ---------", ...fields.filter(([, v]) => v).map(([k, v]) => `${k}: ${v}`)];
  const text = withBody ? `${head.join("\n")}\n\n${body(q)}` : head.join("\n");
  const html = `<div>${head.map(escapeHtml).join("<br>\n")}</div>` + (withBody ? `\n<br>\n<div>${htmlLines(body(q))}</div>` : "");
  return { text, html };
}

/**
 * The new text with a block below it: in the text part always (a reply with only an HTML part given
 * gets none), in the HTML part when there is one.
 */
export function appendBlock(parts: BodyParts, add: Addition): BodyParts {
  const join = (mine: string | undefined, block: string, sep: string) => (mine?.trim() ? `${mine.replace(/\s+$/, "")}${sep}${block}` : block);
  const out: BodyParts = {};
  if (parts.text !== undefined || parts.html === undefined) out.text = join(parts.text, add.text, "\n\n");
  if (parts.html !== undefined) out.html = join(parts.html, add.html, "\n<br>\n");
  return out;
}
