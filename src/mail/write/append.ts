// APPEND to a folder, and to the folder of a special use (\Drafts, \Sent), learning the new UID.
import type { ImapFlow } from "imapflow";
import { MailError } from "../errors.ts";
import { cachedSpecialUse, forgetSpecialUse, requireSpecialUse, type SpecialUse } from "../imap/folders.ts";
import { withMailbox } from "../imap/mailbox.ts";
import { unlessRefused } from "../imap/refusal.ts";

export interface Appended {
  folder: string;
  uid: number | null;
}

/**
 * APPENDs `raw` and returns its UID: from APPENDUID (RFC 4315 UIDPLUS) when the server sends it,
 * else by searching the folder for the Message-ID we generated.
 *
 * APPEND names its folder, which need not be selected (RFC 3501 §6.3.11): with UIDPLUS the folder
 * selected stays as it is, so a send in between reads costs no SELECT of Sent now and no EXAMINE of
 * the read folder after (one round trip each). Otherwise the destination is selected read-write
 * first, under its lock, to find the UID by searching.
 */
export async function appendMessage(client: ImapFlow, folder: string, raw: Buffer, flags: string[], messageId: string): Promise<Appended> {
  const selected = client.mailbox ? client.mailbox.path : null;
  if (client.capabilities.has("UIDPLUS") && selected !== folder) {
    // A NO stored nothing: the caller may look the folder up again (appendToSpecial).
    const res = await unlessRefused(`save the message in ${folder}`, () => client.append(folder, raw, flags));
    if (res && res.uid) return { folder, uid: res.uid };
    if (!res) throw new MailError("protocol", `The server refused to save the message in ${folder}.`);
    // Stored without an APPENDUID: found by searching below, never appended again.
    return withMailbox(client, folder, () => uidOf(client, folder, messageId), { freshness: "sync" });
  }
  return withMailbox(client, folder, async () => {
    const res = await client.append(folder, raw, flags);
    if (!res) throw new MailError("protocol", `The server refused to save the message in ${folder}.`);
    if (res.uid) return { folder, uid: res.uid };
    await client.noop(); // learn of the new message before searching for it
    return uidOf(client, folder, messageId);
  }, { freshness: "none" });
}

/** The newest message of the selected `folder` with our Message-ID. */
async function uidOf(client: ImapFlow, folder: string, messageId: string): Promise<Appended> {
  const found = (await client.search({ header: { "message-id": messageId } }, { uid: true })) || [];
  return { folder, uid: found.length ? Math.max(...found) : null };
}

/**
 * APPENDs to the folder with `use`. A path remembered from an earlier call is tried first; if that
 * fails with a MailError (folder gone: the lock or the APPEND was refused, so nothing was stored)
 * the folders are listed again once. Other errors (a dropped connection) are not retried.
 */
async function appendToSpecial(client: ImapFlow, use: SpecialUse, raw: Buffer, flags: string[], messageId: string): Promise<Appended> {
  const cached = cachedSpecialUse(client, use);
  if (cached) {
    try {
      return await appendMessage(client, cached, raw, flags, messageId);
    } catch (err) {
      if (!(err instanceof MailError)) throw err;
      forgetSpecialUse(client);
    }
  }
  return appendMessage(client, await requireSpecialUse(client, use), raw, flags, messageId);
}

/** \Draft marks it as a draft for every client; \Seen keeps it from showing up as unread mail. */
export const appendDraft = (client: ImapFlow, raw: Buffer, messageId: string) => appendToSpecial(client, "\\Drafts", raw, ["\\Draft", "\\Seen"], messageId);

export const appendSent = (client: ImapFlow, raw: Buffer, messageId: string) => appendToSpecial(client, "\\Sent", raw, ["\\Seen"], messageId);
