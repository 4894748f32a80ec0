// IMAP helpers shared by the write operations: folder lookup (by special-use attribute), UID
// existence checks, and reading a reply's parent message. Mailbox locks: withMailbox in ./imap.ts
// (shared with the read tools; it releases the lock in finally).
import { cleanLine } from "./sanitize.ts";
import type { ImapFlow, ListResponse } from "imapflow";
import type { ReplySource } from "./compose.ts";
import { firstMessageId, parseMessageIds } from "./message-ids.ts";
import { fetchByUid, withMailbox } from "./imap.ts";
import { MailError } from "./types.ts";

export type SpecialUse = "\\Drafts" | "\\Sent";

export async function listFolders(client: ImapFlow): Promise<ListResponse[]> {
  return client.list();
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
// path is kept per connection for a minute, and a failed APPEND to a kept path re-lists (drafts.ts).
const SPECIAL_TTL_MS = 60_000;
const specialCache = new WeakMap<ImapFlow, Map<SpecialUse, { path: string; at: number }>>();

export function cachedSpecialUse(client: ImapFlow, use: SpecialUse): string | undefined {
  const hit = specialCache.get(client)?.get(use);
  return hit && Date.now() - hit.at < SPECIAL_TTL_MS ? hit.path : undefined;
}

export const forgetSpecialUse = (client: ImapFlow) => specialCache.delete(client);

export async function requireSpecialUse(client: ImapFlow, use: SpecialUse): Promise<string> {
  const found = findSpecialUse(await listFolders(client), use);
  if (!found) throw new MailError("not_found", `This mailbox has no folder marked ${use}. Create one in your mail client (or mark a folder as ${use.slice(1)}) and try again.`);
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
  return new MailError("not_found", `${argument}: folder ${JSON.stringify(name)} does not exist. Existing folders: ${names.join(", ")}.`);
}

/** Which of `uids` exist in the selected mailbox (one UID SEARCH of exactly those UIDs). */
export async function existingUids(client: ImapFlow, uids: number[]): Promise<number[]> {
  const found = (await client.search({ uid: uids.join(",") }, { uid: true })) || [];
  const set = new Set(found);
  return uids.filter((u) => set.has(u));
}

/** Envelope and threading headers of the message a reply answers. */
export async function fetchReplySource(client: ImapFlow, folder: string, uid: number): Promise<ReplySource> {
  return withMailbox(
    client,
    folder,
    async () => {
      const msg = await fetchByUid(client, uid, { envelope: true, headers: ["references"] });
      if (!msg) throw new MailError("not_found", `reply_to_uid: no message with UID ${uid} in ${JSON.stringify(folder)}. Use get_recent_emails or search_emails to find its UID.`);
      const env = msg.envelope ?? {};
      return {
        // Parsed, never copied raw: a sender's `<id> Bcc: victim@x` must not reach our headers.
        messageId: firstMessageId(env.messageId),
        inReplyTo: firstMessageId(env.inReplyTo),
        references: parseMessageIds(msg.headers?.toString("utf8").replace(/\r?\n[ \t]+/g, " ")),
        subject: cleanLine(env.subject ?? ""), // echoed into the new subject and the tool's text
      };
    },
    { readOnly: true, freshness: "verify" },
  );
}
