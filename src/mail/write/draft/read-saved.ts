// A saved draft, read back whole for update_draft and send_draft. Only a draft: a message with the
// \Draft flag, or any message in the \Drafts folder (RFC 6154), so that neither tool can be
// pointed at received mail to rewrite or re-send it.
import type { ImapFlow } from "imapflow";
import { MAX_ATTACHMENT_BYTES } from "../../compose/message.ts";
import { MailError } from "../../errors.ts";
import { resolveFolderName } from "../../imap/folders.ts";
import { fetchByUid, withMailbox } from "../../imap/mailbox.ts";
import { uidNotFound } from "../../imap/uids.ts";
import { encodedCap, rawBytes } from "../part-bytes.ts";

export interface DraftSource {
  /** The folder's real path. */
  folder: string;
  uid: number;
  raw: Buffer;
}

/** The largest draft read back: 20 MB of attachments in base64 plus room for the text. */
export const MAX_DRAFT_BYTES = encodedCap("base64", MAX_ATTACHMENT_BYTES) + 1024 * 1024;

export async function readDraft(client: ImapFlow, folder: string, uid: number): Promise<DraftSource> {
  const drafts = await resolveFolderName(client, "\\Drafts").catch(() => null);
  return withMailbox(client, folder, async (box) => {
    const msg = await fetchByUid(client, uid, { uid: true, flags: true, size: true });
    if (!msg) throw await uidNotFound(client, box, uid);
    if (!msg.flags?.has("\\Draft") && box.path !== drafts) {
      throw new MailError("invalid", `uid ${uid} in "${box.path}" is not a draft: it has no \\Draft flag and "${box.path}" is not the Drafts folder. ` +
        "Only drafts can be changed or sent this way; to answer or pass on a received message use reply_to_uid or forward_uid.");
    }
    if ((msg.size ?? 0) > MAX_DRAFT_BYTES) {
      throw new MailError("invalid", `The draft uid ${uid} in "${box.path}" is ${((msg.size ?? 0) / 1048576).toFixed(1)} MB, more than this server handles (20 MB of attachments). Send it from a mail program.`);
    }
    const raw = await rawBytes(client, { ref: { folder, uid, part: "", argument: "uid" }, path: box.path, section: null }, MAX_DRAFT_BYTES);
    return { folder: box.path, uid, raw };
  }, { readOnly: true, freshness: "verify" });
}
