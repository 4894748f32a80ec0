// The invitation of one message, with its calendar text, for respond_to_invitation: the message
// fetched (up to 4 MB, read-only, never \Seen) and parsed as get_email parses it.
import type { ImapFlow } from "imapflow";
import { fetchByUid, withMailbox } from "../imap/mailbox.ts";
import { uidNotFound } from "../imap/uids.ts";
import { parseMessage } from "../mime/tree.ts";
import { calendarText } from "./invitation-part.ts";
import { readInvitation, type Invitation } from "./invitation.ts";

const LIMIT = 4 * 1024 * 1024;

export interface InvitationMessage {
  invitation: Invitation;
  calendar: string;
  subject: string;
}

/** null when the message carries no invitation. */
export async function readInvitationMessage(client: ImapFlow, folder: string, uid: number): Promise<InvitationMessage | null> {
  const source = await withMailbox(client, folder, async (box) => {
    const msg = await fetchByUid(client, uid, { uid: true, source: { maxLength: LIMIT } });
    if (!msg?.source) throw await uidNotFound(client, box, uid);
    return msg.source;
  }, { readOnly: true, freshness: "verify" });
  const parsed = await parseMessage(source);
  const calendar = calendarText(parsed);
  const invitation = calendar === null ? null : readInvitation(calendar);
  return invitation && calendar !== null ? { invitation, calendar, subject: invitation.summary ?? "" } : null;
}
