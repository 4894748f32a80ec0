// Removing one message for good: only a draft that has been replaced (update_draft) or sent
// (send_draft), whose content lives on in the new draft or in Sent. \Deleted, then UID EXPUNGE of
// that uid alone (RFC 4315): a plain EXPUNGE would also purge whatever else another client had
// marked \Deleted in the folder, so without UIDPLUS the draft is only marked \Deleted.
import type { ImapFlow } from "imapflow";
import { MailError } from "../errors.ts";
import { withMailbox } from "../imap/mailbox.ts";

export async function removeMessage(client: ImapFlow, folder: string, uid: number): Promise<void> {
  await withMailbox(client, folder, async () => {
    if (!client.capabilities.has("UIDPLUS")) {
      await client.messageFlagsAdd(String(uid), ["\\Deleted"], { uid: true });
      throw new MailError("protocol", `the server cannot expunge one message alone (no UIDPLUS), so uid ${uid} is only marked as deleted`);
    }
    if (!(await client.messageDelete(String(uid), { uid: true }))) throw new MailError("protocol", `the server refused to delete uid ${uid} in ${folder}`);
  }, { freshness: "none" });
}
