// Which messages belong to a conversation (get_thread, docs/design.md §6): the ones linked to it by
// Message-ID, In-Reply-To and References (RFC 5322 §3.6.4), searched for on the server in each folder
// where a conversation lives: the folder given, INBOX, \Sent (the person's own replies), \Archive and
// \All; never Trash or Junk unless that is the folder given. Every id learnt from a message found is
// searched for in turn, so a reply that quotes only its parent is found too. On Gmail the server's
// own thread id (X-GM-THRID) finds the whole conversation in All Mail with one SEARCH.
import type { FetchMessageObject, FetchQueryObject, ImapFlow, SearchObject } from "imapflow";
import { resolveFolderName, specialUsePaths, type SpecialUse } from "../../imap/folders.ts";
import { fetchByUid, fetchOwn, withMailbox } from "../../imap/mailbox.ts";
import { uidNotFound } from "../../imap/uids.ts";
import { firstMessageId, parseMessageIds } from "../../mime/message-ids.ts";
import { SUMMARY_HEADERS, SUMMARY_QUERY } from "../summary.ts";

export interface Found {
  /** The folder's real path. */
  folder: string;
  /** Its place among the folders searched: the folder given is 0 (a copy there is the one shown). */
  rank: number;
  msg: FetchMessageObject;
}

/** A message up to this size comes whole with the search results; a larger one is read later, and only if shown. */
export const INLINE_SOURCE = 64 * 1024;
/** The most messages one thread may gather, whatever max_messages says (a bound on work and memory). */
export const MAX_GATHERED = 200;
const IDS_PER_SEARCH = 40;
const MAX_PASSES = 3;

const QUERY: FetchQueryObject = { ...SUMMARY_QUERY, headers: [...SUMMARY_HEADERS, "references", "in-reply-to"], source: { maxLength: INLINE_SOURCE } };
const USES: SpecialUse[] = ["\\Sent", "\\Archive", "\\All"];

/** The folders to search, in order of preference: the one given, INBOX, Sent, Archive, All Mail. */
export async function threadFolders(client: ImapFlow, given: string): Promise<string[]> {
  const special = (await specialUsePaths(client, USES)).filter((p): p is string => p !== null);
  const paths = [await resolveFolderName(client, given), "INBOX", ...special];
  return [...new Set(paths.map((p) => (p.toUpperCase() === "INBOX" ? "INBOX" : p)))];
}

/** The ids a message is linked by: its own, its parent's, its ancestors'. */
function idsOf(msg: FetchMessageObject): string[] {
  const headers = msg.headers?.toString("utf8").replace(/\r?\n[ \t]+/g, " ") ?? "";
  return [firstMessageId(msg.envelope?.messageId), firstMessageId(msg.envelope?.inReplyTo), ...parseMessageIds(headers)].filter((id): id is string => !!id);
}

const LINK_FIELDS = ["message-id", "references", "in-reply-to"];
const linkedTo = (ids: string[]): SearchObject => ({
  or: ids.flatMap((id) => LINK_FIELDS.map((field): SearchObject => ({ header: { [field]: id } }))),
});

export async function gather(client: ImapFlow, folders: string[], uid: number): Promise<{ seed: Found; found: Found[] }> {
  const seed = await withMailbox(client, folders[0]!, async (box) => {
    const msg = await fetchByUid(client, uid, { ...QUERY, threadId: client.capabilities.has("X-GM-EXT-1") });
    if (!msg) throw await uidNotFound(client, box, uid);
    return { folder: box.path, rank: 0, msg };
  }, { readOnly: true, freshness: "verify" });
  const found = new Map<string, Found>([[`0:${uid}`, seed]]);
  const all = await gmailAllMail(client, folders);
  if (seed.msg.threadId && all) await byThreadId(client, all, folders.indexOf(all), seed.msg.threadId, found);
  else await byIds(client, folders, idsOf(seed.msg), found);
  return { seed, found: [...found.values()] };
}

/** Gmail's All Mail, when the server speaks X-GM-EXT-1 and has one. */
async function gmailAllMail(client: ImapFlow, folders: string[]): Promise<string | null> {
  if (!client.capabilities.has("X-GM-EXT-1")) return null;
  const [all] = await specialUsePaths(client, ["\\All"]);
  return all && folders.includes(all) ? all : null;
}

async function byThreadId(client: ImapFlow, folder: string, rank: number, threadId: string, found: Map<string, Found>): Promise<void> {
  await withMailbox(client, folder, async () => {
    const uids = ((await client.search({ threadId }, { uid: true })) || []).slice(-MAX_GATHERED);
    await fetchNew(client, folder, rank, uids, found);
  }, { readOnly: true, freshness: "verify" });
}

/**
 * Searches each folder for the ids not yet searched there, learning new ids from what it finds,
 * until a whole pass learns nothing (or MAX_PASSES, or MAX_GATHERED messages).
 */
async function byIds(client: ImapFlow, folders: string[], start: string[], found: Map<string, Found>): Promise<void> {
  const known = new Set(start);
  const searched = folders.map(() => new Set<string>());
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const before = known.size;
    for (const [rank, folder] of folders.entries()) {
      if (found.size >= MAX_GATHERED) return;
      if (![...known].some((id) => !searched[rank]!.has(id))) continue;
      await withMailbox(client, folder, async (box) => {
        for (let pending = [...known].filter((id) => !searched[rank]!.has(id)); pending.length && found.size < MAX_GATHERED;) {
          const batch = pending.slice(0, IDS_PER_SEARCH);
          batch.forEach((id) => searched[rank]!.add(id));
          const uids = (await client.search(linkedTo(batch), { uid: true })) || [];
          for (const f of await fetchNew(client, box.path, rank, uids, found)) idsOf(f.msg).forEach((id) => known.add(id));
          pending = [...known].filter((id) => !searched[rank]!.has(id));
        }
      }, { readOnly: true, freshness: "verify" });
    }
    if (known.size === before) return;
  }
}

/** FETCHes the uids not found yet (within MAX_GATHERED) and records them. */
async function fetchNew(client: ImapFlow, folder: string, rank: number, uids: number[], found: Map<string, Found>): Promise<Found[]> {
  const fresh = uids.filter((u) => !found.has(`${rank}:${u}`)).slice(0, MAX_GATHERED - found.size);
  if (!fresh.length) return [];
  const msgs = await fetchOwn(client, fresh.join(","), QUERY, true, new Set(fresh));
  return msgs.map((msg) => {
    const f = { folder, rank, msg };
    found.set(`${rank}:${msg.uid}`, f);
    return f;
  });
}
