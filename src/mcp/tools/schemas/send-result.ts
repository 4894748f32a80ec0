// The sending tools' answer (docs/design.md §6): one shape for every outcome of the send gate
// (src/sending/request.ts SendResult), and what the owner's activity log keeps of it.
import { z } from "zod";
import { SEND_POLICIES } from "../../../send-policy.ts";
import type { SendResult } from "../../../sending/request.ts";
import type { ActivityDetails } from "../../../store/activity.ts";

const draftRef = z.object({
  folder: z.string().describe("Path of the Drafts folder."),
  uid: z.number().int().nullable().describe("UID of the draft there (null only if the server could not say)."),
});

const preview = z.object({
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  size: z.number().int().describe("Bytes of the whole message as it would go over SMTP."),
  attachments: z.array(z.object({ filename: z.string(), size: z.number().int().describe("Decoded bytes.") })),
  policy: z.enum(SEND_POLICIES).describe("This connection's send policy."),
  would_ask: z.boolean().describe("Whether the person would be asked before it goes out."),
  new_recipients: z.array(z.string()).describe("Recipients this mailbox has never written to."),
});

export const sendResultShape = {
  status: z.enum(["sent", "held_as_draft", "dry_run"]).describe("sent: it went out. held_as_draft: it did not; it is in draft (see reason). dry_run: nothing was done."),
  decision: z.enum(["sent_directly", "confirmed", "declined", "held_as_draft", "dry_run", "repeat"])
    .describe("What decided it: sent without asking, confirmed or declined by the person, held because they could not be asked (or are reviewing it), a dry run, or a repeat of a request already handled (its first outcome)."),
  message_id: z.string().nullable().describe("Message-ID of the sent or held message, with angle brackets; null for a dry run."),
  accepted: z.array(z.string()).describe("Recipient addresses the SMTP server accepted (empty unless sent)."),
  rejected: z.array(z.string()).describe("Recipient addresses the SMTP server refused (empty unless sent)."),
  saved_to: z.string().nullable().describe("Path of the Sent folder holding our copy; null when not sent, or the provider files sent mail itself."),
  draft: draftRef.nullable().describe("Where the held message is saved; null unless held."),
  reason: z.string().nullable().describe("Why it was not sent, where it is and what the person can do; null when sent."),
  preview: preview.nullable().describe("For a dry run: exactly what would be sent and what the send policy would do; else null."),
  from: z.string().nullable().describe("The address the message was sent from (or would be, for a dry run): one of the mailbox's identities; null when not sent."),
};

/** What the activity log keeps of a sending tool's answer: the decision, where the message went, never its subject. */
export function sendActivity(r: SendResult): ActivityDetails {
  return {
    decision: r.decision,
    folder: r.status === "sent" ? r.saved_to : r.draft?.folder ?? null,
    ...(r.draft?.uid != null ? { uids: [r.draft.uid] } : {}),
    message_id: r.message_id,
    // Which identity it went out as (docs/owner.md §4).
    ...(r.from ? { from: r.from } : {}),
    ...(r.rejected.length ? { rejected: r.rejected } : {}),
  };
}

/**
 * The same for a tool that sends about a message it names by folder and uid (send_draft,
 * respond_to_invitation, unsubscribe): that message's folder and uid, from the arguments, stay;
 * the decision, Message-ID and who got it are added.
 */
export function sendAboutActivity(r: SendResult): ActivityDetails {
  const { folder: _sentTo, uids: _held, ...rest } = sendActivity(r);
  return { ...rest, recipients: [...r.accepted, ...r.rejected] };
}
