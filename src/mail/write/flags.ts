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

/**
 * Sets (`on`) or clears a system flag such as \Seen or \Flagged (RFC 3501 §2.3.2). Both commands are
 * UID commands, so the *verify* rule holds (docs/freshness.md): a change another client made before
 * the call is reported at the end of the UID SEARCH at the latest, and then both run again (setting a
 * flag twice is setting it once), instead of a NOOP first; another client's flag change does not
 * (the UID SEARCH asks which UIDs exist, whatever their flags, and the STORE sets the flag either
 * way). `.SILENT` (RFC 3501 §6.4.6): the server does not echo our own change, which would read as
 * someone else's.
 */
export async function setFlag(client: ImapFlow, folder: string, uids: number[], flag: "\\Seen" | "\\Flagged", on: boolean): Promise<MarkResult> {
  const wanted = checkUids(uids);
  return withMailbox(client, folder, async (box) => {
    // STORE on a UID that does not exist is silently ignored by IMAP servers, so look first
    // and tell the caller which ones were not there.
    const found = await existingUids(client, wanted);
    if (found.length) {
      const range = found.join(",");
      if (on) await client.messageFlagsAdd(range, [flag], { uid: true, silent: true });
      else await client.messageFlagsRemove(range, [flag], { uid: true, silent: true });
    }
    return { folder: box.path, updated: found.length, missing: wanted.filter((u) => !found.includes(u)) };
  }, { freshness: "verify", flagChanges: "shown" }); // which UIDs exist does not hang on flags
}

export const markRead = (client: ImapFlow, folder: string, uids: number[], read = true) => setFlag(client, folder, uids, "\\Seen", read);
