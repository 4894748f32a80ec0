// One mailbox's contacts as the last find_contacts left them: two tallies (./tally.ts) and where
// \Sent and INBOX stood (./harvest.ts). Calls on the same book run one after another, so two
// concurrent calls never count a message twice.
import type { ImapFlow } from "imapflow";
import { specialUsePaths } from "../../imap/folders.ts";
import { harvestAnswered, harvestSent, type AnsweredState, type FolderMark } from "./harvest.ts";
import { rankContacts, type Contact, type RankOptions, type Tally } from "./tally.ts";

export class ContactBook {
  private readonly sent: Tally = new Map();
  private readonly received: Tally = new Map();
  private sentMark: FolderMark | null = null;
  private sentPath: string | null = null;
  private answered: AnsweredState = { mark: null, counted: new Set() };
  private queue: Promise<unknown> = Promise.resolve();

  /** Brings the tallies up to date with `client` (the mailbox's connection), then ranks them. */
  find(client: ImapFlow, options: RankOptions): Promise<Contact[]> {
    const run = this.queue.then(() => this.refresh(client)).then(() => rankContacts(this.sent, this.received, options));
    this.queue = run.catch(() => {});
    return run;
  }

  private async refresh(client: ImapFlow): Promise<void> {
    const [path = null] = await specialUsePaths(client, ["\\Sent"]);
    if (path !== this.sentPath) [this.sentPath, this.sentMark] = [path, null];
    if (path) this.sentMark = await harvestSent(client, path, this.sentMark, this.sent);
    else this.sent.clear();
    this.answered = await harvestAnswered(client, this.answered, this.received);
  }
}
