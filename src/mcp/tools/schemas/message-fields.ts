// The fields of a message to compose, shared by draft_email and send_email (docs/design.md §6), and
// what the owner's activity log keeps of them (docs/owner.md §4): recipients and the message
// answered, never the subject or the bodies.
import { z } from "zod";
import { SPECIAL_USE_HINT } from "./args.ts";
import type { ActivityDetails } from "../../../store/activity.ts";
import type { ToolArgs } from "../define.ts";

const recipients = (what: string) =>
  z.union([z.string(), z.array(z.string()).max(100)])
    .describe(`${what}: an array of addresses (a single string is accepted too). Each is "name@example.com" or "Full Name <name@example.com>".`);

export const messageFields = {
  to: recipients("Recipients (at least one)"),
  cc: recipients("Cc recipients").optional(),
  bcc: recipients("Bcc recipients, hidden from the others").optional(),
  subject: z.string().max(1000).optional()
    .describe('Subject line. Required unless reply_to_uid is given; then it defaults to "Re: <original subject>". A given subject is used as is.'),
  text: z.string().optional().describe("Plain-text body."),
  html: z.string().optional().describe("HTML body. Give text as well so that text-only mail readers see something."),
  reply_to_uid: z.number().int().positive().max(4_294_967_295).optional()
    .describe("UID of the message being answered (from get_recent_emails / search_emails): the reply is threaded under it with In-Reply-To and References."),
  reply_folder: z.string().min(1).max(1000).optional()
    .describe(`Folder of the message in reply_to_uid: a path, ${SPECIAL_USE_HINT}. Default INBOX.`),
};

/** The recipients as given (to, cc, bcc) and, for a reply, the message answered. */
export function messageActivity(args: ToolArgs<typeof messageFields>): ActivityDetails {
  const details: ActivityDetails = { recipients: [args.to, args.cc ?? [], args.bcc ?? []].flat() };
  if (args.reply_to_uid !== undefined) details.reply_to = { folder: args.reply_folder ?? "INBOX", uid: args.reply_to_uid };
  return details;
}
