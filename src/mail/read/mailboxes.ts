// list_mailboxes: every folder with its counts, in one round trip.
import type { ImapFlow } from "imapflow";

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

/** The most folders listed: far above any real account, and a bound on what a hostile server can make us send on. */
export const MAX_FOLDERS = 5000;

/** One LIST with STATUS (LIST-STATUS where the server has it): one round trip for all folders. */
export async function listMailboxes(client: ImapFlow): Promise<MailboxInfo[]> {
  const list = await client.list({ statusQuery: { messages: true, unseen: true } });
  return list.slice(0, MAX_FOLDERS).map((m) => ({
    path: m.path,
    name: m.name,
    delimiter: m.delimiter ?? "",
    special_use: m.specialUse ?? null,
    flags: [...m.flags],
    messages: m.status?.messages ?? null,
    unseen: m.status?.unseen ?? null,
    subscribed: m.subscribed === true, // imapflow leaves it unset for unsubscribed folders
  }));
}

