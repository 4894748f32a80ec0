// UIDs as tool arguments and as the server knows them: the argument check, which of them exist, and
// "no such uid" errors that say what the folder does hold.
import type { ImapFlow, MailboxObject } from "imapflow";
import { InputError, MailError } from "../errors.ts";
import { fetchOwn } from "./mailbox.ts";

export const MAX_UIDS = 100;
const MAX_UID = 4_294_967_295; // RFC 3501 §2.3.1.1: a UID is a 32-bit unsigned number

/** 1 to 100 positive 32-bit integers; duplicates collapse, order is kept. */
export function checkUids(uids: readonly number[], argument = "uids"): number[] {
  if (!uids.length) throw new InputError(argument, "give at least one UID");
  if (uids.length > MAX_UIDS) throw new InputError(argument, `${uids.length} UIDs given; at most ${MAX_UIDS} per call`);
  const bad = uids.find((u) => !Number.isInteger(u) || u < 1 || u > MAX_UID);
  if (bad !== undefined) throw new InputError(argument, `${bad} is not a UID (UIDs are positive integers)`);
  return [...new Set(uids)];
}

/** Which of `uids` exist in the selected mailbox (one UID SEARCH of exactly those UIDs). */
export async function existingUids(client: ImapFlow, uids: number[]): Promise<number[]> {
  const found = (await client.search({ uid: uids.join(",") }, { uid: true })) || [];
  const set = new Set(found);
  return uids.filter((u) => set.has(u));
}

/** The newest UID in the selected folder, for "no such uid" messages; null when empty. */
export async function newestUid(client: ImapFlow, mailbox: MailboxObject): Promise<number | null> {
  if (!mailbox.exists) return null;
  const last = await fetchOwn(client, "*", { uid: true }, false);
  return last.length ? Math.max(...last.map((m) => m.uid)) : null;
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

/** Every requested uid is gone: say so as it is, since a listing a moment ago may have shown them. */
export function uidsGone(uids: number[], folder: string, nothingDone: string): MailError {
  const which = uids.length === 1 ? `uid ${uids[0]} is` : `uids ${uids.join(", ")} are`;
  return new MailError(
    "not_found",
    `Message ${which} no longer in "${folder}": moved or deleted since it was listed (perhaps by another mail client), ` +
      `or never there. ${nothingDone} Use get_recent_emails or search_emails for current uids.`,
  );
}
