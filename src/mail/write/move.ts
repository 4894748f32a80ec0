// move_email: IMAP MOVE (RFC 6851) with the new UIDs from COPYUID (RFC 4315), so the caller can
// keep working with the messages where they landed.
import type { ImapFlow } from "imapflow";
import { checkUids } from "../imap/uids.ts";
import { InputError } from "../errors.ts";
import { withMailbox } from "../imap/mailbox.ts";
import { MailError } from "../errors.ts";
import { listFolders, resolveFolder, resolveFolderName, unknownFolder } from "../imap/folders.ts";
import { existingUids } from "../imap/uids.ts";

export interface MoveResult {
  from: string;
  to: string;
  /** new_uid is null only when the server does not report COPYUID (no UIDPLUS). */
  moved: Array<{ uid: number; new_uid: number | null }>;
  missing: number[];
}

// INBOX is case-insensitive (RFC 3501 §5.1); every other name is compared as given.
const canonical = (path: string) => (path.toUpperCase() === "INBOX" ? "INBOX" : path);

/**
 * The happy path costs one SELECT and one UID MOVE: the server refuses a MOVE to a missing or
 * non-selectable folder as a whole (nothing moves), and only then do we LIST to say why.
 */
export async function moveEmails(client: ImapFlow, folder: string, uids: number[], destination: string): Promise<MoveResult> {
  const wanted = checkUids(uids);
  const to = canonical(await resolveFolderName(client, destination, "destination"));
  if (canonical(await resolveFolderName(client, folder)) === to) {
    throw new InputError("destination", `is the same folder as folder (${JSON.stringify(to)}); nothing to move`);
  }
  refuseBareExpunge(client);
  return withMailbox(client, folder, async (mailbox) => {
    const from = mailbox.path;
    // With UIDPLUS the COPYUID map tells which UIDs existed (no map: none did); without it, look first.
    const uidplus = client.capabilities.has("UIDPLUS");
    const candidates = uidplus ? wanted : await existingUids(client, wanted);
    if (!candidates.length) return nothingMoved(client, from, to, wanted);
    const res = await client.messageMove(candidates.join(","), to, { uid: true });
    if (!res) throw await refused(client, from, to);
    const map = res.uidMap;
    const moved = (uidplus ? candidates.filter((u) => map?.has(u)) : candidates).map((uid) => ({ uid, new_uid: map?.get(uid) ?? null }));
    if (!moved.length) return nothingMoved(client, from, to, wanted);
    const done = new Set(moved.map((m) => m.uid));
    return { from, to, moved, missing: wanted.filter((u) => !done.has(u)) };
  });
}

/**
 * Without MOVE (RFC 6851) imapflow copies, marks the originals \Deleted and expunges; without UIDPLUS
 * (RFC 4315 UID EXPUNGE) that EXPUNGE would also erase every message another client had marked
 * \Deleted in the folder. This server never deletes permanently (docs/design.md §6), so it refuses.
 */
function refuseBareExpunge(client: ImapFlow): void {
  if (client.capabilities.has("MOVE") || client.capabilities.has("UIDPLUS")) return;
  throw new MailError("protocol", "This mail server cannot move messages without also erasing other messages marked as deleted in the folder " +
    "(it supports neither MOVE nor UIDPLUS), and this server never deletes permanently; nothing was moved. Move them in your mail app instead.");
}

// A server may answer a MOVE of no existing message with OK before looking at the destination:
// when nothing moved, make sure a bad destination is still reported as such.
async function nothingMoved(client: ImapFlow, from: string, to: string, missing: number[]): Promise<MoveResult> {
  const problem = await destinationProblem(client, to);
  if (problem) throw problem;
  return { from, to, moved: [], missing };
}

/** Why the server refused the MOVE, as precisely as LIST lets us say. */
async function refused(client: ImapFlow, from: string, to: string): Promise<MailError> {
  return (await destinationProblem(client, to)) ??
    new MailError("protocol", `The server refused to move the messages from ${from} to ${to} (quota or permissions?); nothing was moved.`);
}

/** A missing or non-selectable destination, or undefined when it looks fine (or LIST failed). */
async function destinationProblem(client: ImapFlow, to: string): Promise<MailError | undefined> {
  const folders = await listFolders(client).catch(() => undefined);
  if (!folders) return undefined;
  const target = resolveFolder(folders, to);
  if (!target) return unknownFolder("destination", to, folders);
  if (target.flags.has("\\Noselect") || target.flags.has("\\NonExistent")) {
    return new MailError("invalid", `destination: ${JSON.stringify(to)} cannot hold messages (it is only a parent folder); nothing was moved.`);
  }
  return undefined;
}
