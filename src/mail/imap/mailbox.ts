// The selected folder: a locked folder whose view is current (docs/freshness.md), and FETCH that keeps
// only the answers to our own command.
import type { FetchMessageObject, FetchQueryObject, ImapFlow, MailboxObject } from "imapflow";
import { tracking } from "./client.ts";
import { applyFlagChange, isFlagOnlyAnswer, noteFlagChange, noteShown, type FlagCounters } from "./flag-updates.ts";
import { folderNotFound, forgetSpecialUse, resolveFolderName, specialUseOf } from "./folders.ts";

/**
 * How a call makes sure it sees what other clients changed before it began (docs/freshness.md):
 * - "sync": NOOP first when the folder was already selected (RFC 3501 §6.1.2: the server then
 *   reports pending EXISTS/EXPUNGE/FETCH). One round trip; for writes and sequence-number reads.
 * - "verify": run fn on the view as it is; the server's end-of-command update (RFC 3501 §7, sent
 *   before the tagged OK) reveals any change, and then fn runs once more on the now-current view.
 *   Saves the NOOP in the common case. Only for fn that reads, and only with UID commands, which
 *   may carry EXPUNGE responses (RFC 3501 §7.4.1).
 * - "recheck": run fn on the view as it is, telling it whether that view is known current; fn
 *   itself brings the view up to date (NOOP) and does again what was left undone, when only its
 *   answer can tell whether staleness got in the way. For a write whose answer names what it did
 *   per message (a UID MOVE's COPYUID, RFC 4315 §3): one command where "sync" sends two.
 * - "none": the folder is only a target (APPEND, a UID STORE that may miss): no view is read.
 */
export type Freshness = "sync" | "verify" | "recheck" | "none";

export interface MailboxOptions {
  /**
   * EXAMINE instead of SELECT: the server itself then refuses any flag change (reads use this). A
   * folder the connection already has selected read-write (a write left it so) is read as it is:
   * every read fetches with BODY.PEEK (RFC 3501 §6.4.5), which sets no flag, and an EXAMINE after
   * each write, then a SELECT for the next, cost a round trip each and the view's caches.
   * "strict": EXAMINE whatever is selected, where a read-write view would do harm (folders.ts: a
   * folder imapflow CLOSEs before renaming it must not be read-write, or CLOSE expunges).
   */
  readOnly?: boolean | "strict";
  /** A function decides once the folder is locked (e.g. from what is known of its view). */
  freshness?: Freshness | ((box: MailboxObject) => Freshness);
  /**
   * Which of another client's flag changes make a "verify" call run again: "any" (the default), or
   * "shown", those naming a message an earlier command of the call fetched (one reported in the same
   * FETCH as the answer it names is given to that answer: fetchOwn; see ./flag-updates.ts). "shown"
   * is for a call whose answer does not depend on flags for which messages it holds (no flag in its
   * search), and whose messages' flags come from its own FETCH: a change to another message cannot
   * alter it.
   */
  flagChanges?: FlagScope;
}

export type FlagScope = "any" | "shown";

/**
 * Runs fn with `path` selected, locked and current (as `freshness` says how). The pooled connection
 * is shared by the token's sessions; the lock keeps another session from selecting a different
 * folder under us. `fresh` tells fn the view is known current: a SELECT this call, or a NOOP.
 */
export async function withMailbox<T>(
  client: ImapFlow,
  name: string,
  fn: (mailbox: MailboxObject, fresh: boolean) => Promise<T>,
  options: MailboxOptions = {},
): Promise<T> {
  const t = tracking(client);
  const selectsBefore = t?.selects;
  // A connection opened for this call EXAMINEd its folder in its first turn (./early-session.ts),
  // and may have fetched its newest page (./early-prefetch.ts): both for this call only.
  const [preselected, prefetched] = [t?.preselected, t?.prefetched];
  if (t) [t.preselected, t.prefetched] = [undefined, undefined];
  const { lock, path } = await lockMailbox(client, name, options);
  try {
    // A SELECT issued after this call began is itself the freshest view; imapflow's lock sends
    // nothing when the folder is already selected, and then the view may be minutes old.
    const early = preselected !== undefined && t !== null && t.selects === selectsBefore && isSelected(client, path) && samePath(preselected, path);
    const selected = t !== null && (t.selects !== selectsBefore || early);
    if (early && prefetched) t.prefetched = prefetched;
    const mode = typeof options.freshness === "function" ? options.freshness(current(client, path)) : options.freshness;
    if (selected || mode === "none") return await fn(client.mailbox as MailboxObject, selected);
    if (mode === "recheck" && t) return await fn(current(client, path), false);
    if (mode === "verify" && t) return await verified(t, () => fn(current(client, path), false), options.flagChanges);
    await client.noop();
    return await fn(current(client, path), true);
  } catch (err) {
    // Deleted or renamed by another client while we had it selected: the server closed it.
    if (err instanceof FolderClosed) {
      lock.release();
      return withMailbox(client, path, fn, { ...options, freshness: "none" });
    }
    throw err;
  } finally {
    if (t) t.prefetched = undefined;
    lock.release(); // a second release is ignored by imapflow
  }
}

/**
 * Locks the folder `name` stands for (a path, or a special-use name such as "\\Sent": ./folders.ts).
 * A special-use folder remembered from an earlier call that has since gone is looked up once more.
 */
async function lockMailbox(client: ImapFlow, name: string, options: MailboxOptions) {
  for (let attempt = 0; ; attempt++) {
    const path = await resolveFolderName(client, name);
    try {
      const readOnly = options.readOnly === "strict" || (options.readOnly === true && !selectedReadWrite(client, path));
      return { lock: await client.getMailboxLock(path, { readOnly }), path };
    } catch (err) {
      if (!(err as { mailboxMissing?: boolean }).mailboxMissing) throw err;
      if (attempt === 0 && specialUseOf(name) !== null) {
        forgetSpecialUse(client);
        continue;
      }
      throw await folderNotFound(client, path);
    }
  }
}

/** INBOX is case-insensitive (RFC 3501 §5.1); every other name is what the server calls it. */
const samePath = (a: string, b: string) => a === b || (a.toUpperCase() === "INBOX" && b.toUpperCase() === "INBOX");

/** `path` (as a caller names it) is the folder selected now. */
const isSelected = (client: ImapFlow, path: string) => !!client.mailbox && samePath(client.mailbox.path, path);

/** `path` is the folder selected, with SELECT (not EXAMINE). */
function selectedReadWrite(client: ImapFlow, path: string): boolean {
  const box = client.mailbox;
  return !!box && box.path === path && !box.readOnly;
}

class FolderClosed extends Error {}

/** The selected folder, unless the server closed it under us (RFC 7162 §3.2.11 [CLOSED], BYE-less). */
function current(client: ImapFlow, path: string): MailboxObject {
  const box = client.mailbox;
  if (!box || typeof box.path !== "string") throw new FolderClosed(path);
  return box;
}

/**
 * fn, and fn again if the server reported a change while it ran (see Freshness): any change to the
 * folder's messages, and of flag changes those `scope` says.
 */
export async function verified<T>(t: { changes: number } & FlagCounters, fn: () => Promise<T>, scope: FlagScope = "any"): Promise<T> {
  const seen = () => t.changes + (scope === "any" ? t.flagChanges : t.shownFlagChanges);
  const before = seen();
  const outer = t.shown;
  if (scope === "shown") t.shown = { seqs: new Set(), uids: new Set() };
  try {
    const first = await fn();
    if (seen() === before) return first;
  } catch (err) {
    if (seen() === before) throw err;
  } finally {
    t.shown = outer;
  }
  return fn();
}

/**
 * FETCH, keeping only the answers to this command. A server may push FETCH responses for other
 * messages (another client changed their flags) in the middle of ours (RFC 3501 §7.4.2); imapflow
 * yields those too. They never reach a result as messages: one carrying flags alone for a message
 * this FETCH answered gives it those flags, one for another message is counted as a flag change
 * (./flag-updates.ts), anything else as a change.
 * `requireStructure`: an answer without BODYSTRUCTURE is someone else's too (when it is what was asked for).
 * The command runs as imapflow's fetchOne and fetchAll run it, answers collected in one list: its
 * fetch() generator, which hands them over one by one, cost ~0.035 ms more per command here (a
 * promise and a wake-up per answer, a range resolution), a sixth of a UID FETCH's round trip on
 * loopback, and we keep every answer until the command ends either way.
 */
export async function fetchOwn(
  client: ImapFlow, range: string, query: FetchQueryObject, byUid: boolean, wanted?: Set<number>, requireStructure = false,
): Promise<FetchMessageObject[]> {
  const own = new Map<number, FetchMessageObject>();
  const t = tracking(client);
  // A flag change names its message by sequence number (or UID), and an EXPUNGE, which shifts the
  // numbers, is a change that runs the call again whatever else came. One naming an answer of this
  // FETCH is given to it; one naming another message is counted (./flag-updates.ts).
  for (const msg of await fetchList(client, range, query, byUid)) {
    const complete = typeof msg.uid === "number" && (!query.envelope || msg.envelope) && (!query.source || msg.source) &&
      (!requireStructure || msg.bodyStructure);
    if (complete && (!wanted || wanted.has(msg.uid)) && !own.has(msg.uid)) {
      own.set(msg.uid, msg);
      if (t) noteShown(t, msg);
    } else if (isFlagOnlyAnswer(msg)) {
      // Looked up only when such a report comes (rare), not indexed for every answer.
      const answer = typeof msg.uid === "number" ? own.get(msg.uid) : [...own.values()].find((m) => m.seq === msg.seq);
      if (answer) applyFlagChange(answer, msg);
      if (t && answer) t.flagChanges++;
      else if (t) noteFlagChange(t, msg.seq, msg.uid);
    } else if (t) t.changes++;
  }
  return [...own.values()];
}

/** FETCH's answers, as imapflow formats them; none when no folder is selected or it is empty ("*"). */
async function fetchList(client: ImapFlow, range: string, query: FetchQueryObject, byUid: boolean): Promise<FetchMessageObject[]> {
  if (!client.mailbox) return [];
  // "*" as imapflow's fetch() resolves it: the last sequence number (some servers refuse a bare "*").
  if (range === "*") {
    const exists = (client.mailbox as MailboxObject).exists;
    if (!exists) return [];
    [range, byUid] = [String(exists), false];
  }
  const run = (client as unknown as { run(command: "FETCH", ...args: unknown[]): Promise<{ list: FetchMessageObject[] } | undefined> }).run;
  const answer = await run.call(client, "FETCH", range, query, { uid: byUid });
  return answer?.list ?? [];
}

/** One message by UID, or null when the folder has none with that UID. */
export async function fetchByUid(client: ImapFlow, uid: number, query: FetchQueryObject): Promise<FetchMessageObject | null> {
  const [msg] = await fetchOwn(client, String(uid), { ...query, uid: true }, true, new Set([uid]));
  return msg ?? null;
}

/** imapflow keys a partial answer `BODY[2]<0>` as "2<0>" or "2" depending on the server's echo. */
export function sectionOf(parts: Map<string, Buffer> | undefined, section: string): Buffer | undefined {
  if (!parts) return undefined;
  const key = section.toLowerCase();
  for (const [k, v] of parts) if (k === key || k.startsWith(`${key}<`)) return v;
  return undefined;
}
