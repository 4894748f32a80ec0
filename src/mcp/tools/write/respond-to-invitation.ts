// respond_to_invitation: answers a calendar invitation with an iTIP REPLY (RFC 5546 §3.2.3) sent as
// iMIP (RFC 6047: a text/calendar; method=REPLY part) from this mailbox's invited address to the
// organizer, through the send gate (src/sending/gate.ts) like every message that leaves: the
// organizer may be new, so the policy applies, dry_run works, and the person may be asked. After a
// real send the invitation is flagged \Answered (src/sending/deliver.ts).
import { z } from "zod";
import { readInvitationMessage } from "../../../mail/calendar/invitation-message.ts";
import { replyCalendar, type Response } from "../../../mail/calendar/reply.ts";
import type { Invitation } from "../../../mail/calendar/invitation.ts";
import { fenceUntrusted } from "../../../mail/content/sanitize.ts";
import { composeMessage } from "../../../mail/compose/message.ts";
import { findIdentity } from "../../../mail/identities/identity.ts";
import { ownAddresses } from "../../../mail/own-addresses.ts";
import { SENDING_TOOL_META } from "../../confirm/review-card.ts";
import type { OutgoingMail, SendResult } from "../../../sending/request.ts";
import { defineTool } from "../define.ts";
import { ToolInputError } from "../result.ts";
import { folderArg, uidArg } from "../schemas/args.ts";
import { sendAboutActivity, sendResultShape } from "../schemas/send-result.ts";
import { senderFor, type IdentityLookup } from "./sender.ts";

const WORDS: Record<Response, string> = { accepted: "Accepted", tentative: "Tentative", declined: "Declined" };

/** The invited address of this mailbox, or why the invitation cannot be answered. */
function invitedAddress(inv: Invitation, own: string[]): string {
  if (inv.method === "CANCEL") throw new ToolInputError("This message cancels the event: there is nothing to answer.");
  if (inv.method !== "REQUEST") throw new ToolInputError(`This calendar message (${inv.method ?? "no method"}) is not an invitation to answer: only REQUEST is.`);
  if (!inv.organizer?.address) throw new ToolInputError("The invitation names no organizer (ORGANIZER with a mailto: address), so there is no one to answer.");
  const mine = inv.attendees.find((a) => a.address && own.includes(a.address.toLowerCase()));
  if (!mine?.address) throw new ToolInputError("This mailbox is not among the invitation's attendees: it was not invited under its own address.");
  return mine.address;
}

export const respondToInvitation = (identities: IdentityLookup) => defineTool({
  name: "respond_to_invitation",
  kind: "write",
  config: {
    title: "Answer a calendar invitation",
    description:
      "Answers the calendar invitation in a message (get_email shows it as invitation) with accepted, tentative or declined: " +
      "an iTIP reply goes to the organizer from this mailbox, through the same rules as send_email (status, decision, reason: " +
      "sent at once, asked first, or held as a draft; dry_run: true shows what would be sent). The invitation is marked as answered once sent. " +
      "Refused for a cancellation, an invitation without an organizer, or one that does not invite this mailbox. Does not change any calendar.",
    inputSchema: {
      folder: folderArg,
      uid: uidArg,
      response: z.enum(["accepted", "tentative", "declined"]).describe("The answer."),
      comment: z.string().max(2000).optional().describe("A short note to the organizer, sent with the answer."),
      dry_run: z.boolean().default(false).describe("true: only say what would be sent and whether the person would be asked; nothing is sent."),
    },
    outputSchema: sendResultShape,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    _meta: SENDING_TOOL_META,
  },
  activity: {
    fromArgs: (a) => ({ folder: a.folder, uids: [a.uid] }),
    // The invitation's folder and uid stay (the answer's own copy is in Sent); who got the answer is added.
    fromResult: (r) => sendAboutActivity(r as SendResult),
  },
  handler: async (args, ctx) => {
    const account = await ctx.account();
    const found = await ctx.withImap((c) => readInvitationMessage(c, args.folder, args.uid));
    if (!found) throw new ToolInputError(`Message uid ${args.uid} in ${args.folder} carries no calendar invitation.`);
    // The invited address may be any of the mailbox's identities; the answer goes out from it.
    const sender = await senderFor(identities, ctx, account);
    const from = invitedAddress(found.invitation, ownAddresses(account, sender.identities));
    const organizer = found.invitation.organizer!;
    const compose = async (): Promise<OutgoingMail> => {
      const subject = `${WORDS[args.response]}: ${found.subject}`.trim();
      const text = `${WORDS[args.response]}${args.comment ? `\n\n${args.comment}` : ""}\n`;
      const c = await composeMessage({
        from: findIdentity(sender.identities, from) ?? from, recipients: { to: [{ name: organizer.name, address: organizer.address! }], cc: [], bcc: [] }, subject, text,
        calendar: { method: "REPLY", content: replyCalendar(found.calendar, from, args.response, args.comment ?? null, new Date()) },
      });
      return {
        messageId: c.messageId, stored: c.stored, wire: c.wire, envelope: c.envelope, subject: c.subject, recipients: c.recipients,
        attachments: [], preview: text, after: { answered: { folder: args.folder, uid: args.uid } },
        describe: fenceUntrusted(`Answer "${args.response}" to the invitation "${found.subject}" from ${organizer.address}`, "The answer", "the organizer").text,
      };
    };
    const { dry_run: dryRun, ...identity } = args;
    return ctx.sending.send({ tool: "respond_to_invitation", identity, dryRun, compose });
  },
});
