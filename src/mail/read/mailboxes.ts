// list_mailboxes: every folder with its counts, bounded whatever the server lists (docs/tools.md
// "list_mailboxes"): at most MAX_FOLDERS folders (../imap/list.ts), counts in the LIST itself where
// the server offers LIST-STATUS, else one STATUS per folder shown, as many as fit in
// STATUS_BUDGET_MS.
import type { ImapFlow } from "imapflow";
import { listBounded, MAX_FOLDERS } from "../imap/list.ts";

export { MAX_FOLDERS };

export interface MailboxInfo {
  path: string;
  name: string;
  delimiter: string;
  special_use: string | null;
  flags: string[];
  messages: number | null;
  unseen: number | null;
  subscribed: boolean;
}

export interface MailboxList {
  mailboxes: MailboxInfo[];
  /** Folders the server listed beyond MAX_FOLDERS, not shown. */
  omitted: number;
  /** Folders shown without counts: the STATUS budget ran out before them. */
  uncounted: number;
}

/** Time for STATUS commands when the server has no LIST-STATUS: one round trip each (~20 ms to a real provider). */
export const STATUS_BUDGET_MS = 8_000;

export async function listMailboxes(client: ImapFlow, budgetMs = STATUS_BUDGET_MS): Promise<MailboxList> {
  const deadline = performance.now() + budgetMs;
  const listing = await listBounded(client, { status: true, subscriptions: true });
  let uncounted = 0;
  if (!listing.statusInline) {
    for (const f of listing.folders) {
      if (f.flags.has("\\Noselect")) continue;
      if (performance.now() > deadline) {
        uncounted++;
        continue;
      }
      const s = await client.status(f.path, { messages: true, unseen: true }).catch(() => false as const);
      if (s) listing.status.set(f.path, { messages: s.messages, unseen: s.unseen });
    }
  }
  const mailboxes = listing.folders.map((m) => ({
    path: m.path,
    name: m.name,
    delimiter: m.delimiter ?? "",
    special_use: m.specialUse ?? null,
    flags: [...m.flags],
    messages: listing.status.get(m.path)?.messages ?? null,
    unseen: listing.status.get(m.path)?.unseen ?? null,
    subscribed: m.subscribed === true,
  }));
  return { mailboxes, omitted: listing.omitted, uncounted };
}
