// get_thread: the conversation a message belongs to, oldest first, from every folder where it lives
// (./gather.ts), each message once, bounded in messages and characters, saying what it left out.
import type { ImapFlow } from "imapflow";
import type { ContentReaders } from "../../content/readers.ts";
import { firstMessageId } from "../../mime/message-ids.ts";
import { trustedAuthservIds } from "../sender/trust.ts";
import { toSummary, type Summary } from "../summary.ts";
import { readBodies, type MessageBody } from "./bodies.ts";
import { gather, threadFolders, type Found } from "./gather.ts";

export interface ThreadQuery {
  folder: string;
  uid: number;
  maxMessages: number;
  maxCharsPerMessage: number;
  includeQuoted: boolean;
}

export type ThreadMessage = Summary & MessageBody;

export interface Thread {
  /** The subject of the oldest message found. */
  subject: string;
  messages: ThreadMessage[];
  /** Messages of the thread left out by max_messages (the oldest ones). */
  omitted: number;
  folders_searched: string[];
}

/** All bodies together are at most this many characters (get_email's largest max_chars): newest first get theirs. */
export const THREAD_MAX_CHARS = 200_000;

/** `content`: the HTML→text helpers, on the calling token's share (../../content/readers.ts). */
export async function getThread(client: ImapFlow, q: ThreadQuery, content: ContentReaders): Promise<Thread> {
  const folders = await threadFolders(client, q.folder);
  const { seed, found } = await gather(client, folders, q.uid);
  const all = oldestFirst(onePerMessage(found));
  const shown = newest(all, q.maxMessages, seed);
  const bodies = await readBodies(client, shown, budgets(shown.length, q.maxCharsPerMessage), q.includeQuoted, content);
  const trusted = trustedAuthservIds(client);
  return {
    subject: all[0] ? toSummary(all[0].msg, all[0].folder).subject : "",
    messages: shown.map((f, i) => ({ ...toSummary(f.msg, f.folder, trusted), ...bodies[i]! })),
    omitted: all.length - shown.length,
    folders_searched: folders,
  };
}

/** A message filed in several folders (a copy in INBOX and Archive, Gmail labels) is shown once, from the best-ranked folder. */
function onePerMessage(found: Found[]): Found[] {
  const best = new Map<string, Found>();
  const rest: Found[] = [];
  for (const f of found) {
    const id = firstMessageId(f.msg.envelope?.messageId);
    if (!id) rest.push(f);
    else if (!best.has(id) || best.get(id)!.rank > f.rank) best.set(id, f);
  }
  return [...best.values(), ...rest];
}

const time = (f: Found) => {
  const t = new Date(toSummary(f.msg, f.folder).date ?? 0).getTime();
  return Number.isNaN(t) ? 0 : t;
};

function oldestFirst(list: Found[]): Found[] {
  return [...list].sort((a, b) => time(a) - time(b) || a.rank - b.rank || a.msg.uid - b.msg.uid);
}

/** The newest `max`, and always the message asked about. */
function newest(all: Found[], max: number, seed: Found): Found[] {
  if (all.length <= max) return all;
  const kept = all.slice(all.length - max);
  const asked = all.find((f) => f.rank === seed.rank && f.msg.uid === seed.msg.uid) ?? all.find((f) => firstMessageId(f.msg.envelope?.messageId) === firstMessageId(seed.msg.envelope?.messageId));
  if (!asked || kept.includes(asked)) return kept;
  return [asked, ...kept.slice(1)];
}

/** Each message's character budget: max_chars_per_message, within THREAD_MAX_CHARS for all, newest first. */
function budgets(count: number, perMessage: number): number[] {
  const out = new Array<number>(count).fill(0);
  let left = THREAD_MAX_CHARS;
  for (let i = count - 1; i >= 0; i--) {
    out[i] = Math.min(perMessage, left);
    left -= out[i]!;
  }
  return out;
}
