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
 * The happy path costs one UID MOVE (after a SELECT when the folder was not selected): the server
 * refuses a MOVE to a missing or non-selectable folder as a whole (nothing moves), and only then do
 * we LIST to say why.
 */
export async function moveEmails(client: ImapFlow, folder: string, uids: number[], destination: string): Promise<MoveResult> {
  const wanted = checkUids(uids);
  const to = canonical(await resolveFolderName(client, destination, "destination"));
  if (canonical(await resolveFolderName(client, folder)) === to) {
    throw new InputError("destination", `is the same folder as folder (${JSON.stringify(to)}); nothing to move`);
  }
  refuseBareExpunge(client);
  const uidplus = client.capabilities.has("UIDPLUS");
  // With MOVE and UIDPLUS the MOVE runs on the view as it is ("recheck", docs/freshness.md): see
  // moveRest. Otherwise on a current view ("sync"): without UIDPLUS nothing says which UIDs existed,
  // and imapflow's COPY-then-expunge would expunge, by the UIDs asked, a message delivered since that
  // a stale view's COPY did not see.
  const freshness = uidplus && client.capabilities.has("MOVE") ? "recheck" : "sync";
  return withMailbox(client, folder, async (mailbox, fresh) => {
    const from = mailbox.path;
    const candidates = uidplus ? wanted : await existingUids(client, wanted);
    if (!candidates.length) return nothingMoved(client, from, to, wanted);
    let done = await moveOnce(client, candidates, to, uidplus);
    if (!fresh && (!done || done.size < candidates.length)) done = await moveRest(client, { from, to }, candidates, done);
    if (!done) throw await refused(client, from, to);
    const moved = candidates.filter((u) => done.has(u)).map((uid) => ({ uid, new_uid: done.get(uid) ?? null }));
    if (!moved.length) return nothingMoved(client, from, to, wanted);
    return { from, to, moved, missing: wanted.filter((u) => !done.has(u)) };
  }, { freshness });
}

/** One UID MOVE: what moved (uid → new uid, null without UIDPLUS), or null when the server refused it. */
async function moveOnce(client: ImapFlow, uids: number[], to: string, uidplus: boolean): Promise<Map<number, number | null> | null> {
  const res = await client.messageMove(uids.join(","), to, { uid: true });
  if (!res) return null;
  if (!uidplus) return new Map(uids.map((u) => [u, null]));
  const asked = new Set(uids);
  return new Map([...(res.uidMap ?? [])].filter(([u]) => asked.has(u)));
}

/**
 * The MOVE ran on a view not known current and left something undone. COPYUID (RFC 4315 §3) names
 * every message it moved, and a UID is never reused (RFC 9051 §2.3.1.1), so a stale view can only
 * leave messages behind, never move the wrong one. Dovecot, on a view older than another client's
 * change, moves nothing and answers NO [EXPUNGEISSUED] (RFC 5530) when one of the UIDs was expunged
 * meanwhile, and passes over a UID delivered since. So: bring the view up to date and move the rest,
 * once; what is still left then is missing.
 */
async function moveRest(
  client: ImapFlow, where: { from: string; to: string }, candidates: number[], first: Map<number, number | null> | null,
): Promise<Map<number, number | null> | null> {
  await client.noop();
  const rest = first ? candidates.filter((u) => !first.has(u)) : candidates;
  const again = await moveOnce(client, rest, where.to, true);
  if (!first?.size) return again;
  if (!again) {
    const moved = [...first].map(([uid, to]) => `${uid} → ${to}`).join(", ");
    throw new MailError("protocol", `Moved some of the messages from ${where.from} to ${where.to} (UID ${moved}), then the server refused to ` +
      `move the rest (UID ${rest.join(", ")}: quota or permissions?); those are still in ${where.from}.`);
  }
  return new Map([...first, ...again]);
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
