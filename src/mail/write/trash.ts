// trash_email and archive_email: a move to the folder of that use (RFC 6154), found whatever the
// provider calls it. Never an expunge: a message in Trash stays there until the person empties it
// in their mail app (docs/design.md §6: this server never deletes permanently).
import type { ImapFlow } from "imapflow";
import { InputError } from "../errors.ts";
import { isGmail } from "../imap/capabilities.ts";
import { cachedSpecialUse, findSpecialUse, listFolders, requireSpecialUse, resolveFolderName } from "../imap/folders.ts";
import { moveEmails, type MoveResult } from "./move.ts";

const canonical = (path: string) => (path.toUpperCase() === "INBOX" ? "INBOX" : path);

/** Moves to \Trash. On Gmail too this is a real move to [Gmail]/Trash, which takes every label off. */
export async function trashEmails(client: ImapFlow, folder: string, uids: number[]): Promise<MoveResult> {
  const trash = await requireSpecialUse(client, "\\Trash", "trash_email");
  if (canonical(await resolveFolderName(client, folder)) === canonical(trash)) {
    throw new InputError("folder", `${JSON.stringify(trash)} is the Trash folder. This server never deletes mail permanently: ` +
      "empty the Trash in your mail app, or use move_email to take messages out of it");
  }
  return moveEmails(client, folder, uids, trash);
}

/**
 * Moves to \Archive; on Gmail, which has no \Archive, out of the folder into All Mail (\All): Gmail
 * archives by removing the Inbox label, and a MOVE from INBOX to All Mail does exactly that.
 */
export async function archiveEmails(client: ImapFlow, folder: string, uids: number[]): Promise<MoveResult> {
  const archive = await archiveFolder(client);
  if (canonical(await resolveFolderName(client, folder)) === canonical(archive)) {
    throw new InputError("folder", `${JSON.stringify(archive)} is the archive already; nothing to do`);
  }
  return moveEmails(client, folder, uids, archive);
}

async function archiveFolder(client: ImapFlow): Promise<string> {
  const cached = cachedSpecialUse(client, "\\Archive") ?? (isGmail(client) ? cachedSpecialUse(client, "\\All") : undefined);
  if (cached) return cached;
  const folders = await listFolders(client);
  if (findSpecialUse(folders, "\\Archive")) return requireSpecialUse(client, "\\Archive");
  if (isGmail(client) && findSpecialUse(folders, "\\All")) return requireSpecialUse(client, "\\All");
  return requireSpecialUse(client, "\\Archive", "archive_email"); // the error that lists the folders
}
