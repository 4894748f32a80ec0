// Small IMAP helpers shared by the read and write tools: a locked folder, and errors that say
// what exists when something does not.
import type { ImapFlow, MailboxObject } from "imapflow";
import { MailError } from "./types.ts";

export interface MailboxOptions {
  /** EXAMINE instead of SELECT: the server itself then refuses any flag change (reads use this). */
  readOnly?: boolean;
}

/**
 * Runs fn with `path` selected and locked. The pooled connection is shared by the token's sessions;
 * the lock keeps another session from selecting a different folder under us.
 */
export async function withMailbox<T>(
  client: ImapFlow,
  path: string,
  fn: (mailbox: MailboxObject) => Promise<T>,
  options: MailboxOptions = {},
): Promise<T> {
  let lock;
  try {
    lock = await client.getMailboxLock(path, { readOnly: options.readOnly ?? false });
  } catch (err) {
    if ((err as { mailboxMissing?: boolean }).mailboxMissing) throw await folderNotFound(client, path);
    throw err;
  }
  try {
    return await fn(client.mailbox as MailboxObject);
  } finally {
    lock.release();
  }
}

/** Every folder path, for error messages that list what exists. */
export async function folderPaths(client: ImapFlow): Promise<string[]> {
  const list = await client.list();
  return list.map((m) => m.path);
}

export async function folderNotFound(client: ImapFlow, path: string): Promise<MailError> {
  const paths = await folderPaths(client).catch(() => [] as string[]);
  const known = paths.length ? ` Folders: ${paths.join(", ")}.` : "";
  return new MailError("not_found", `Folder "${path}" does not exist.${known} Use list_mailboxes for the exact paths.`);
}

/** The newest UID in the selected folder, for "no such uid" messages; null when empty. */
export async function newestUid(client: ImapFlow, mailbox: MailboxObject): Promise<number | null> {
  if (!mailbox.exists) return null;
  const last = await client.fetchOne(String(mailbox.exists), { uid: true });
  return last ? last.uid : null;
}

export async function uidNotFound(client: ImapFlow, mailbox: MailboxObject, uid: number): Promise<MailError> {
  const newest = await newestUid(client, mailbox).catch(() => null);
  const hint = newest === null
    ? ` The folder is empty.`
    : ` It holds ${mailbox.exists} messages; the newest has uid ${newest}.`;
  return new MailError(
    "not_found",
    `No message with uid ${uid} in "${mailbox.path}" (it may have been moved or deleted).${hint} ` +
      `Use get_recent_emails or search_emails to find current uids.`,
  );
}
