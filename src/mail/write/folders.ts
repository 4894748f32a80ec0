// create_folder, rename_folder, delete_folder. This server never deletes mail (docs/design.md §6):
// only an empty folder without subfolders is deleted, and INBOX and the special-use folders
// (RFC 6154: Sent, Drafts, Trash, Archive, Junk, All…) are never renamed or deleted, since the
// provider and every mail app find them by that role.
import type { ImapFlow, ListResponse } from "imapflow";
import { InputError, MailError } from "../errors.ts";
import { listFolders, resolveFolder, resolveFolderName, specialUseOf, unknownFolder } from "../imap/folders.ts";
import { withMailbox } from "../imap/mailbox.ts";
import { unlessRefused } from "../imap/refusal.ts";

export interface FolderResult {
  path: string;
  /** create_folder: false when the folder was already there (nothing changed). */
  created?: boolean;
}

// RFC 3501 §5.1: a mailbox name is any string; control characters are never part of a real one.
const CONTROL = /[\x00-\x1f\x7f]/;

function checkPath(argument: string, path: string): string {
  if (!path.trim()) throw new InputError(argument, "give a folder path");
  if (CONTROL.test(path)) throw new InputError(argument, "a folder path cannot contain line breaks or control characters");
  if (specialUseOf(path) !== null) throw new InputError(argument, `${path} names a special-use folder; give the path of a new folder`);
  return path;
}

export async function createFolder(client: ImapFlow, path: string): Promise<FolderResult> {
  checkPath("path", path);
  const res = await unlessRefused(`create ${JSON.stringify(path)}`, () => client.mailboxCreate(path));
  return { path: res?.path ?? path, created: res?.created !== false };
}

export async function renameFolder(client: ImapFlow, name: string, newPath: string): Promise<FolderResult> {
  checkPath("new_path", newPath);
  const folders = await listFolders(client);
  const from = await ownFolder(client, folders, name, "path", "renamed");
  if (resolveFolder(folders, newPath)) throw new InputError("new_path", `a folder ${JSON.stringify(newPath)} already exists`);
  await outsideSelection(client, from, () => unlessRefused(`rename ${JSON.stringify(from.path)}`, () => client.mailboxRename(from.path, newPath)));
  return { path: newPath };
}

export async function deleteFolder(client: ImapFlow, name: string): Promise<FolderResult> {
  const folders = await listFolders(client);
  const folder = await ownFolder(client, folders, name, "path", "deleted");
  const prefix = folder.path + (folder.delimiter ?? "/");
  const children = folders.filter((f) => f.path.startsWith(prefix));
  if (children.length) {
    throw new MailError("invalid", `${JSON.stringify(folder.path)} has subfolders (${children.map((f) => f.path).join(", ")}); ` +
      "only an empty folder without subfolders is deleted. Nothing was deleted.");
  }
  await outsideSelection(client, folder, async (exists) => {
    if (exists) {
      throw new MailError("invalid", `${JSON.stringify(folder.path)} holds ${exists} message${exists === 1 ? "" : "s"}; this server deletes only empty folders ` +
        "and never deletes mail. Move the messages elsewhere first (move_email, trash_email). Nothing was deleted.");
    }
    await unlessRefused(`delete ${JSON.stringify(folder.path)}`, () => client.mailboxDelete(folder.path));
  });
  return { path: folder.path };
}

/** The existing folder `name` stands for, unless it is INBOX or has a special use. */
async function ownFolder(client: ImapFlow, folders: ListResponse[], name: string, argument: string, verb: string): Promise<ListResponse> {
  const path = await resolveFolderName(client, name, argument);
  const folder = resolveFolder(folders, path);
  if (!folder) throw unknownFolder(argument, path, folders);
  if (folder.path.toUpperCase() === "INBOX") throw new InputError(argument, `INBOX is never ${verb}`);
  if (folder.specialUse) {
    throw new InputError(argument, `${JSON.stringify(folder.path)} is the ${folder.specialUse.slice(1)} folder (special use ${folder.specialUse}); ` +
      `the provider and mail apps find it by that role, so it is never ${verb}`);
  }
  return folder;
}

/**
 * Runs fn with `folder` examined (read-only) under the connection's lock, passing its message count.
 * imapflow CLOSEs a folder it has selected before renaming or deleting it, and CLOSE on a folder
 * selected read-write expunges every message marked \Deleted (RFC 3501 §6.4.2), perhaps by another
 * mail app; after EXAMINE it removes nothing. A folder that cannot be selected (\Noselect) holds no
 * messages and is not selected: fn runs without the lock.
 */
async function outsideSelection<T>(client: ImapFlow, folder: ListResponse, fn: (exists: number) => Promise<T>): Promise<T> {
  if (folder.flags.has("\\Noselect") || folder.flags.has("\\NonExistent")) return fn(0);
  return withMailbox(client, folder.path, (box) => fn(box.exists), { readOnly: "strict", freshness: "sync" });
}
