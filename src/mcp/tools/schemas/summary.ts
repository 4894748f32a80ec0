// The Summary shape of docs/design.md §6 (get_recent_emails, search_emails, the first fields of
// get_email) and its readable lines. Descriptions are written for the model.
import { z } from "zod";
import { fenceUntrusted } from "../../../mail/content/sanitize.ts";
import { formatAddress } from "../../../mail/read/display-addresses.ts";
import type { Summary } from "../../../mail/read/summary.ts";

export const addressSchema = z.object({
  name: z.string().nullable().describe("Display name, or null when the header has none."),
  address: z.string().nullable().describe("The email address, or null when the header gave none that is usable (only a name)."),
});

const verdict = z.enum(["pass", "fail", "softfail", "neutral", "none", "temperror", "permerror"]).nullable();

export const senderCheckSchema = z.object({
  spf: verdict.describe("SPF (RFC 7208) as the mailbox's own provider found it; null when it did not say."),
  dkim: verdict.describe("DKIM (RFC 6376): the first signature's verdict as the provider found it; null when it did not say."),
  dmarc: verdict.describe("DMARC (RFC 7489): pass means the From domain is verified; fail means it is not."),
  from_domain: z.string().nullable().describe("The domain of the From address."),
  aligned: z.boolean().describe("A passing check (DMARC, or DKIM/SPF for the From domain or a domain under it) vouches for the From domain."),
}).nullable().describe("What the mailbox's own provider recorded on receipt (Authentication-Results, RFC 8601), never a header a sender could have written; null when there is none to trust.");

export const unsubscribeSchema = z.object({
  one_click: z.boolean().describe("The https link takes the one-click unsubscribe (RFC 8058): the unsubscribe tool can do it."),
  https: z.string().nullable().describe("The https unsubscribe link the message gives (List-Unsubscribe), or null."),
  mailto: z.string().nullable().describe("The mailto: unsubscribe address the message gives, or null."),
}).nullable().describe("How to leave the mailing list (List-Unsubscribe, RFC 2369); null when the message offers no way. Written by the sender.");

export const summarySchema = z.object({
  uid: z.number().int(),
  folder: z.string(),
  message_id: z.string().nullable().describe("Message-ID header, angle brackets kept."),
  subject: z.string(),
  from: addressSchema.nullable(),
  to: z.array(addressSchema),
  cc: z.array(addressSchema),
  date: z.string().nullable().describe("ISO 8601, from the Date header (arrival time when the header is unusable)."),
  seen: z.boolean(),
  flagged: z.boolean(),
  has_attachments: z.boolean(),
  size: z.number().int().describe("Size of the whole message in bytes."),
  labels: z.array(z.string()).describe("Gmail labels, or elsewhere the message's IMAP keywords (label_email sets them); [] when none."),
  sender_check: senderCheckSchema,
  unsubscribe: unsubscribeSchema,
  account: z.string().optional().describe("The mailbox the message is in; present when a read spans several mailboxes."),
});

export const nextBeforeUid = z.number().int().nullable()
  .describe("Pass as before_uid to get the next older page; null when there are no older matches.");

/** `Name <address>`, `address`, or `Name (no address)`; shared by the tools' text blocks. */
export const who = formatAddress;

/** One line per message, for the readable text block; `withFolder` when a page spans folders. */
export function summaryLine(s: Summary, withFolder = false): string {
  const marks = [s.seen ? "" : "unread", s.flagged ? "flagged" : "", s.has_attachments ? "attachments" : ""].filter(Boolean);
  if (s.labels.length) marks.push(`labels: ${s.labels.join(", ")}`);
  const tail = marks.length ? ` [${marks.join(", ")}]` : "";
  return `uid ${s.uid}${withFolder ? ` in ${s.folder}` : ""} | ${s.date ?? "no date"} | ${s.from ? who(s.from) : "(unknown sender)"} | ${s.subject || "(no subject)"}${tail}`;
}

/**
 * The page's lines inside one untrusted-content fence (subjects and names are written by the
 * senders), then the paging hint, which is ours.
 */
export function summaryLines(emails: Summary[], nextBefore: number | null, withFolder = false): string {
  const what = `One line per message (uid${withFolder ? " in folder" : ""} | date | sender | subject)`;
  const lines = [fenceUntrusted(emails.map((e) => summaryLine(e, withFolder)).join("\n"), what, "the senders").text];
  if (nextBefore !== null) lines.push(`More older messages: call again with before_uid ${nextBefore}.`);
  return lines.join("\n");
}
