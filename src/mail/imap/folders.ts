// Folders: the LIST, lookup by path or by special-use attribute (RFC 6154), special-use names as
// folder arguments, and the "folder X does not exist" errors that name the folders that do.
import type { ImapFlow, ListResponse } from "imapflow";
import { MailError } from "../errors.ts";
import { listBounded } from "./list.ts";

export type SpecialUse = "\\Drafts" | "\\Sent" | "\\Trash" | "\\Archive" | "\\Junk" | "\\All";

// RFC 6154 §2 attributes, as a folder argument may name them (docs/design.md §6): the model never has
// to guess that Gmail's Sent folder is "[Gmail]/Sent Mail" or Outlook's Trash "Deleted Items".
const SPECIAL_NAMES = new Map<string, SpecialUse | "INBOX">([
  ["\\inbox", "INBOX"], ["\\sent", "\\Sent"], ["\\drafts", "\\Drafts"], ["\\trash", "\\Trash"],
  ["\\archive", "\\Archive"], ["\\junk", "\\Junk"], ["\\all", "\\All"],
]);

/**
 * The special use a folder argument names ("\\Sent", any case), INBOX for "\\Inbox", or null for a
 * path. A doubled backslash is taken too: the tool descriptions show the names JSON-escaped, and a
 * model may copy them as written.
 */
export function specialUseOf(name: string): SpecialUse | "INBOX" | null {
  if (!name.startsWith("\\")) return null;
  return SPECIAL_NAMES.get(name.replace(/^\\\\/, "\\").toLowerCase()) ?? null;
}

/**
 * The real path a folder argument stands for: a path as given, a special-use name as the folder
 * carrying that attribute (cached per connection like every special-use lookup). A mailbox with no
 * such folder is an error that lists the folders there are.
 */
export async function resolveFolderName(client: ImapFlow, name: string, argument = "folder"): Promise<string> {
  const use = specialUseOf(name);
  if (use === null) return name;
  if (use === "INBOX") return "INBOX";
  return cachedSpecialUse(client, use) ?? (await requireSpecialUse(client, use, argument));
}

/** The folders (at most MAX_FOLDERS of them: ./list.ts), without counts or subscriptions. */
export async function listFolders(client: ImapFlow): Promise<ListResponse[]> {
  return (await listBounded(client)).folders;
}

/** Folder paths for an error message: the first 100, and how many more (a server may list thousands). */
export function someNames(paths: string[]): string {
  const shown = paths.slice(0, 100).join(", ");
  return paths.length > 100 ? `${shown} and ${paths.length - 100} more (list_mailboxes lists them)` : shown;
}

// Server-reported attributes (RFC 6154 SPECIAL-USE) beat imapflow's guesses from localized names:
// a folder merely *called* "Sent" may not be where the provider files sent mail.
const SOURCE_RANK: Record<string, number> = { extension: 0, user: 1, name: 2 };

/** The folder carrying `use`, or undefined. Never chosen by name when the server reports attributes. */
export function findSpecialUse(folders: ListResponse[], use: SpecialUse): ListResponse | undefined {
  const serverReports = folders.some((f) => f.specialUseSource === "extension");
  return folders
    .filter((f) => f.specialUse === use && !f.flags.has("\\Noselect"))
    .filter((f) => !serverReports || f.specialUseSource !== "name")
    .sort((a, b) => (SOURCE_RANK[a.specialUseSource ?? "name"] ?? 3) - (SOURCE_RANK[b.specialUseSource ?? "name"] ?? 3))[0];
}

// A LIST per send or draft is ~1 ms of a ~5 ms local call; folder roles almost never change, so the
// path is kept per connection for a minute, and a failed APPEND to a kept path re-lists (../write/append.ts).
const SPECIAL_TTL_MS = 60_000;
/** null: the mailbox had no folder of that use at that time. */
const specialCache = new WeakMap<ImapFlow, Map<SpecialUse, { path: string | null; at: number }>>();

const freshHit = (client: ImapFlow, use: SpecialUse) => {
  const hit = specialCache.get(client)?.get(use);
  return hit && Date.now() - hit.at < SPECIAL_TTL_MS ? hit : undefined;
};

export function cachedSpecialUse(client: ImapFlow, use: SpecialUse): string | undefined {
  return freshHit(client, use)?.path ?? undefined;
}

const USES: SpecialUse[] = ["\\Drafts", "\\Sent", "\\Trash", "\\Archive", "\\Junk", "\\All"];

/**
 * The folders of several uses at once, null for a use the mailbox lacks: from the per-connection
 * cache, or one LIST when any of them is not known, which then remembers every use, absent ones
 * too (get_thread asks for \Sent, \Archive and \All on every call).
 */
export async function specialUsePaths(client: ImapFlow, uses: SpecialUse[]): Promise<Array<string | null>> {
  if (!uses.every((use) => freshHit(client, use))) {
    const folders = await listFolders(client);
    const now = Date.now();
    const cache = new Map(USES.map((use) => [use, { path: findSpecialUse(folders, use)?.path ?? null, at: now }]));
    specialCache.set(client, cache);
  }
  return uses.map((use) => freshHit(client, use)?.path ?? null);
}

export const forgetSpecialUse = (client: ImapFlow) => specialCache.delete(client);

export async function requireSpecialUse(client: ImapFlow, use: SpecialUse, argument?: string): Promise<string> {
  const folders = await listFolders(client);
  const found = findSpecialUse(folders, use);
  if (!found) {
    const names = someNames(folders.filter((f) => !f.flags.has("\\Noselect")).map((f) => f.path));
    // Without SPECIAL-USE (RFC 6154) nothing marks a folder's role: it is found by its name alone.
    const byName = !client.capabilities.has("SPECIAL-USE") && !folders.some((f) => f.specialUseSource === "extension");
    const how = byName
      ? `This mail server does not mark folders by role (no SPECIAL-USE), so the folder is found by its name: create a folder named "${use.slice(1)}" in your mail client and try again, or name a folder by its path.`
      : `Create one in your mail client (or mark a folder as ${use.slice(1)}) and try again, or name a folder by its path.`;
    throw new MailError("not_found", `${argument ? `${argument}: ` : ""}This mailbox has no folder marked ${use}. ${how} Existing folders: ${names}.`);
  }
  if (!specialCache.has(client)) specialCache.set(client, new Map());
  specialCache.get(client)!.set(use, { path: found.path, at: Date.now() });
  return found.path;
}

/** The listed folder `name` refers to; INBOX is case-insensitive (RFC 3501 §5.1). */
export function resolveFolder(folders: ListResponse[], name: string): ListResponse | undefined {
  if (name.toUpperCase() === "INBOX") return folders.find((f) => f.path.toUpperCase() === "INBOX");
  return folders.find((f) => f.path === name);
}

/** "Folder X does not exist" with the list of the folders that do, so the caller can pick one. */
export function unknownFolder(argument: string, name: string, folders: ListResponse[]): MailError {
  const names = folders.filter((f) => !f.flags.has("\\Noselect")).map((f) => f.path);
  return new MailError("not_found", `${argument}: folder ${JSON.stringify(name)} does not exist. Existing folders: ${someNames(names)}.`);
}

/** Every folder path, for error messages that list what exists. */
export async function folderPaths(client: ImapFlow): Promise<string[]> {
  return (await listFolders(client)).map((m) => m.path);
}

/** A folder the lock could not select: the message lists what exists. */
export async function folderNotFound(client: ImapFlow, path: string): Promise<MailError> {
  const paths = await folderPaths(client).catch(() => [] as string[]);
  const known = paths.length ? ` Folders: ${someNames(paths)}.` : "";
  return new MailError("not_found", `Folder "${path}" does not exist.${known} Use list_mailboxes for the exact paths.`);
}
