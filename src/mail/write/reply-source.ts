// The message a reply answers: its envelope and threading headers, read before composing the reply.
import type { ImapFlow } from "imapflow";
import type { ReplySource } from "../compose/message.ts";
import { cleanLine } from "../content/sanitize.ts";
import { MailError } from "../errors.ts";
import { fetchByUid, withMailbox } from "../imap/mailbox.ts";
import { firstMessageId, parseMessageIds } from "../mime/message-ids.ts";

/** Envelope and threading headers of the message a reply answers. */
export async function fetchReplySource(client: ImapFlow, folder: string, uid: number): Promise<ReplySource> {
  return withMailbox(
    client,
    folder,
    async () => {
      const msg = await fetchByUid(client, uid, { envelope: true, headers: ["references"] });
      if (!msg) throw new MailError("not_found", `reply_to_uid: no message with UID ${uid} in ${JSON.stringify(folder)}. Use get_recent_emails or search_emails to find its UID.`);
      const env = msg.envelope ?? {};
      return {
        // Parsed, never copied raw: a sender's `<id> Bcc: victim@x` must not reach our headers.
        messageId: firstMessageId(env.messageId),
        inReplyTo: firstMessageId(env.inReplyTo),
        references: parseMessageIds(msg.headers?.toString("utf8").replace(/\r?\n[ \t]+/g, " ")),
        subject: cleanLine(env.subject ?? ""), // echoed into the new subject and the tool's text
      };
    },
    { readOnly: true, freshness: "verify" },
  );
}
