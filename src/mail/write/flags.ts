// mark_as_read: set or clear \Seen on a set of UIDs, reporting the ones that do not exist.
import type { ImapFlow } from "imapflow";
import { checkUids } from "../imap/uids.ts";
import { withMailbox } from "../imap/mailbox.ts";
import { existingUids } from "../imap/uids.ts";

export interface MarkResult {
  /** The folder's path (a special-use name given as the argument resolved). */
  folder: string;
  /** Messages found and now in the requested state (already-read ones count too: the call is idempotent). */
  updated: number;
  /** Requested UIDs with no message in the folder (deleted, moved, or never there). */
  missing: number[];
}

export async function markRead(client: ImapFlow, folder: string, uids: number[], read = true): Promise<MarkResult> {
  const wanted = checkUids(uids);
  return withMailbox(client, folder, async (box) => {
    // STORE on a UID that does not exist is silently ignored by IMAP servers, so look first
    // and tell the caller which ones were not there.
    const found = await existingUids(client, wanted);
    if (found.length) {
      const range = found.join(",");
      if (read) await client.messageFlagsAdd(range, ["\\Seen"], { uid: true });
      else await client.messageFlagsRemove(range, ["\\Seen"], { uid: true });
    }
    return { folder: box.path, updated: found.length, missing: wanted.filter((u) => !found.includes(u)) };
  });
}
