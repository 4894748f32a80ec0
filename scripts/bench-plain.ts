// `bun run bench`, the floor of the tool rows (issue 25): a plain imapflow client, as a person's own
// script would use it, doing the IMAP commands our tools send, with a NOOP first (so that it too sees
// what other clients changed). Nothing of ours runs here: no freshness logic, no summaries, no MIME
// parsing, no fences; only imapflow (the same, patched, copy the server uses) and the mail server.
// The rows' "direct" column calls our own mail functions instead, and so measures only the MCP layer.
// Is it a fair floor for get_email? A script that wants only a message's text needs BODY.PEEK[] (and
// FLAGS); on this machine that is ~15-25% faster than the floor's FETCH. Our tool's first read of a
// message must also fetch ENVELOPE, BODYSTRUCTURE, RFC822.SIZE and INTERNALDATE: its summary fields are
// the server's, as every listing shows them, and its attachment list carries the server's part
// numbers, which get_attachment fetches by. So the floor fetches what our first read fetches. A
// re-read of a message our connection has kept (src/mail/read/message-cache.ts) asks the server for
// its flags alone; the floor still fetches the whole message, as a script without such a cache must.
import { ImapFlow, type FetchMessageObject, type FetchQueryObject } from "imapflow";
import type { MailAccount } from "../src/mail/account.ts";

/** What our summaries fetch (src/mail/read/summary.ts SUMMARY_QUERY). */
const SUMMARY: FetchQueryObject = { uid: true, envelope: true, flags: true, size: true, bodyStructure: true, internalDate: true };
/** get_email's first 4 MB of the message (src/mail/read/message.ts WHOLE_MESSAGE_LIMIT). */
const WHOLE: FetchQueryObject = { ...SUMMARY, source: { maxLength: 4 * 1024 * 1024 } };

export interface PlainRows {
  recent(limit: number): Promise<FetchMessageObject[]>;
  search(from: string, limit: number): Promise<FetchMessageObject[]>;
  getEmail(uid: number): Promise<FetchMessageObject | false | undefined>;
  /** Logs out, or closes the socket when the server has dropped an idle connection already. */
  logout(): Promise<void>;
}

/** A plain client: the options a script would pass (no pino logging), nothing of ours. */
export async function plainClient(account: MailAccount, folder: string): Promise<PlainRows> {
  const { host, port, security } = account.imap;
  const auth = account.auth.kind === "password" ? { user: account.username, pass: account.auth.password } : { user: account.username, accessToken: account.auth.accessToken };
  const imap = new ImapFlow({ host, port, secure: security === "tls", doSTARTTLS: security === "starttls" ? true : security === "none" ? false : undefined, auth, logger: false });
  imap.on("error", () => {}); // an idle timeout while other rows run is not a failure of the bench
  await imap.connect();
  /** Runs fn with the folder selected read-only and a NOOP first. */
  const fresh = async <T>(fn: () => Promise<T>): Promise<T> => {
    const lock = await imap.getMailboxLock(folder, { readOnly: true });
    try {
      await imap.noop();
      return await fn();
    } finally {
      lock.release();
    }
  };
  const collect = async (range: string, query: FetchQueryObject, uid: boolean) => {
    const out: FetchMessageObject[] = [];
    for await (const msg of imap.fetch(range, query, { uid })) out.push(msg);
    return out;
  };
  return {
    // NOOP, FETCH of the last `limit` sequence numbers.
    recent: (limit) => fresh(() => {
      const exists = imap.mailbox ? imap.mailbox.exists : 0;
      return exists ? collect(`${Math.max(1, exists - limit + 1)}:*`, SUMMARY, false) : Promise.resolve([]);
    }),
    // NOOP, UID SEARCH FROM … (a script takes the plain list; our server asks for ESEARCH ranges), UID FETCH
    // of the newest `limit` matches.
    search: (from, limit) => fresh(async () => {
      const found = await imap.search({ from }, { uid: true });
      const page = (found || []).sort((a, b) => b - a).slice(0, limit);
      return page.length ? collect(page.join(","), SUMMARY, true) : [];
    }),
    // NOOP, UID FETCH of one message with its first 4 MB.
    getEmail: (uid) => fresh(() => imap.fetchOne(String(uid), WHOLE, { uid: true })),
    logout: () => imap.logout().catch(() => imap.close()),
  };
}
