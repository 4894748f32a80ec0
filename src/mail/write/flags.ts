// mark_as_read and flag_email: set or clear one system flag (\Seen, \Flagged) on a set of UIDs,
// reporting the ones that do not exist.
import type { ImapFlow } from "imapflow";
import { checkUids, existingUids } from "../imap/uids.ts";
import { withMailbox } from "../imap/mailbox.ts";

export interface MarkResult {
  /** The folder's path (a special-use name given as the argument resolved). */
  folder: string;
  /** Messages found and now in the requested state (those already in it count too: the call is idempotent). */
  updated: number;
  /** Requested UIDs with no message in the folder (deleted, moved, or never there). */
  missing: number[];
}

/** Sets (`on`) or clears a system flag such as \Seen or \Flagged (RFC 3501 §2.3.2). */
export async function setFlag(client: ImapFlow, folder: string, uids: number[], flag: "\\Seen" | "\\Flagged", on: boolean): Promise<MarkResult> {
  const wanted = checkUids(uids);
  return withMailbox(client, folder, async (box) => {
    // STORE on a UID that does not exist is silently ignored by IMAP servers, so look first
    // and tell the caller which ones were not there.
    const found = await existingUids(client, wanted);
    if (found.length) {
      const range = found.join(",");
      if (on) await client.messageFlagsAdd(range, [flag], { uid: true });
      else await client.messageFlagsRemove(range, [flag], { uid: true });
    }
    return { folder: box.path, updated: found.length, missing: wanted.filter((u) => !found.includes(u)) };
  });
}

export const markRead = (client: ImapFlow, folder: string, uids: number[], read = true) => setFlag(client, folder, uids, "\\Seen", read);
