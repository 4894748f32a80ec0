// The fields of a message to compose, shared by draft_email, send_email and update_draft
// (docs/design.md §6), and what the owner's activity log keeps of them (docs/owner.md §4): recipients,
// the message answered or forwarded, the mailbox parts attached; never the subject or the bodies.
import { z } from "zod";
import { SPECIAL_USE_HINT } from "./args.ts";
import type { ActivityDetails } from "../../../store/activity.ts";
import type { ToolArgs } from "../define.ts";

const recipients = (what: string) =>
  z.union([z.string(), z.array(z.string()).max(100)])
    .describe(`${what}: an array of addresses (a single string is accepted too). Each is "name@example.com" or "Full Name <name@example.com>".`);

const uid = z.number().int().positive().max(4_294_967_295);
const folder = z.string().min(1).max(1000);

const attachment = z.object({
  filename: z.string().min(1).max(255).describe('File name shown to the recipient, e.g. "report.pdf" (no path).'),
  content_base64: z.string().describe("The file's bytes, standard base64 (RFC 4648, with = padding)."),
  content_type: z.string().max(255).optional().describe('MIME type such as "application/pdf"; guessed from the file name when omitted.'),
});

const partRef = z.object({
  folder: folder.describe(`Folder of the message holding the part: a path, ${SPECIAL_USE_HINT}.`),
  uid: uid.describe("UID of that message."),
  part: z.string().min(1).max(100).describe('Part number as get_email lists it under attachments, e.g. "2".'),
});

export const messageFields = {
  to: recipients('Recipients. Required, except for a reply: then it defaults to the original\'s Reply-To or From (with reply_all, a given "to" is added to those)').optional(),
  cc: recipients("Cc recipients").optional(),
  bcc: recipients("Bcc recipients, hidden from the others").optional(),
  subject: z.string().max(1000).optional()
    .describe('Subject line. Required unless reply_to_uid or forward_uid is given; then it defaults to "Re: <original subject>" or "Fwd: <original subject>". A given subject is used as is.'),
  text: z.string().optional().describe("Plain-text body."),
  html: z.string().optional().describe("HTML body. Give text as well so that text-only mail readers see something (or use markdown, which makes both)."),
  markdown: z.string().optional()
    .describe("Body in Markdown, instead of text and html: an HTML part and a plain-text alternative are both made from it, links kept in both. Raw HTML in it is shown as text."),
  reply_to_uid: uid.optional()
    .describe("UID of the message being answered (from get_recent_emails / search_emails / get_thread): the reply is threaded under it with In-Reply-To and References, and the original is quoted below the new text."),
  reply_folder: folder.optional().describe(`Folder of the message in reply_to_uid: a path, ${SPECIAL_USE_HINT}. Default INBOX.`),
  reply_all: z.boolean().optional()
    .describe("With reply_to_uid: answer everyone. To = the original's Reply-To (or From) and To, Cc = its Cc, without this mailbox's own addresses and without repeats. Default false (the sender only)."),
  quote: z.boolean().optional()
    .describe('For a reply or an inline forward: put the original below the new text ("On <date>, <name> wrote:" and > lines; a blockquote in HTML). Default true; false leaves it out.'),
  forward_uid: uid.optional()
    .describe("UID of a message to forward: its text follows a forwarded-message header block and its attachments are attached server-side (forward_as inline), or the whole message is attached (forward_as attachment). Give to as well."),
  forward_folder: folder.optional().describe(`Folder of the message in forward_uid: a path, ${SPECIAL_USE_HINT}. Default INBOX.`),
  forward_as: z.enum(["inline", "attachment"]).optional()
    .describe('"inline" (default): the original text below yours, its attachments attached. "attachment": the whole original attached as a .eml (message/rfc822).'),
  attach: z.array(partRef).max(100).optional()
    .describe("Parts of messages already in the mailbox to attach, fetched by the server (no need to pass their bytes): {folder, uid, part} with part as get_email lists it."),
  attachments: z.array(attachment).max(100).optional()
    .describe("Files from elsewhere to attach, as base64. Everything attached (attachments, attach and forwarded parts) is at most 20 MB in all, decoded."),
  from: z.string().max(320).optional()
    .describe("The address to send as: one of this mailbox's identities (its login address or an address the person set up to send as; any other is an error listing them). Default: for a reply or forward, the address the original was sent to; otherwise the login address."),
  signature: z.boolean().optional()
    .describe("false leaves the person's signature out of this message. Default true: the signature they set (if any) goes below the new text, above any quote."),
};

type MessageArgs = ToolArgs<typeof messageFields>;

/** The recipients as given (to, cc, bcc) and the mailbox messages the call drew on. */
export function messageActivity(args: MessageArgs): ActivityDetails {
  const details: ActivityDetails = { recipients: [args.to ?? [], args.cc ?? [], args.bcc ?? []].flat() };
  if (args.reply_to_uid !== undefined) details.reply_to = { folder: args.reply_folder ?? "INBOX", uid: args.reply_to_uid };
  if (args.forward_uid !== undefined) details.forward_of = { folder: args.forward_folder ?? "INBOX", uid: args.forward_uid };
  if (args.from !== undefined) details.from = args.from;
  if (args.attach?.length) details.attached_from = args.attach.map(({ folder, uid, part }) => ({ folder, uid, part }));
  return details;
}
