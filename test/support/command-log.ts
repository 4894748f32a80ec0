// Our pooled IMAP client (src/mail/imap/client.ts, as the pool opens it) recording each command line
// it sends, its tag removed: how the round-trip tests count what a call costs on the wire.
import type { ImapFlow } from "imapflow";
import type { MailAccount } from "../../src/mail/account.ts";
import { createImapClient } from "../../src/mail/imap/client.ts";
import { DEFAULT_TIMEOUTS, imapOptions } from "../../src/mail/imap/connect.ts";

export interface RecordingClient {
  client: ImapFlow;
  /** The command lines sent so far (a test may empty it: `sent.length = 0`). */
  sent: string[];
  /** Empties `sent`, runs fn, and returns the commands it sent by their first two words ("UID FETCH", "SELECT Folder"). */
  commands(fn: () => Promise<unknown>): Promise<string[]>;
}

/** Our pooled client, connected, without the after-login probe the pool's first use would make. */
export async function pooledClient(account: MailAccount, extra: Record<string, unknown> = {}): Promise<ImapFlow> {
  const client = await createImapClient({ ...imapOptions(account, DEFAULT_TIMEOUTS), ...extra } as never, { probeAfterLogin: false });
  await client.connect();
  return client;
}

export async function recordingClient(account: MailAccount): Promise<RecordingClient> {
  const sent: string[] = [];
  const record = (o: { src?: string; msg?: string }) => { if (o.src === "c" && o.msg) sent.push(o.msg.replace(/^\S+ /, "")); };
  const logger = { debug: record, info: () => {}, warn: () => {}, error: () => {}, trace: () => {} };
  const client = await pooledClient(account, { logger, logRaw: true });
  return {
    client,
    sent,
    async commands(fn) {
      sent.length = 0;
      await fn();
      return sent.map((c) => c.split(" ").slice(0, 2).join(" "));
    },
  };
}
