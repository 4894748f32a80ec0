// Looking at the harness Dovecot directly, as a mail client would, to check what a tool did.
import { ImapFlow } from "imapflow";
import type { DovecotServer, MailUser } from "./dovecot.ts";

export async function loginImap(dovecot: Pick<DovecotServer, "host" | "port">, user: MailUser): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: dovecot.host, port: dovecot.port, secure: false, logger: false, auth: { user: user.user, pass: user.pass },
  });
  await client.connect();
  return client;
}

export interface FoundMessage {
  uid: number;
  flags: Set<string>;
  seen: boolean;
  raw: Buffer;
}

/** Messages in `folder` whose Subject contains `subject`, oldest first (fresh fetch, lock released). */
export async function findBySubject(c: ImapFlow, folder: string, subject: string): Promise<FoundMessage[]> {
  const lock = await c.getMailboxLock(folder);
  try {
    await c.noop(); // an already-selected folder learns of new mail only on the next sync
    const uids = (await c.search({ subject }, { uid: true })) || [];
    const out: FoundMessage[] = [];
    if (uids.length) {
      for await (const m of c.fetch(uids, { uid: true, flags: true, source: true }, { uid: true })) {
        const flags = m.flags ?? new Set<string>();
        out.push({ uid: m.uid, flags, seen: flags.has("\\Seen"), raw: m.source! });
      }
    }
    return out.sort((a, b) => a.uid - b.uid);
  } finally {
    lock.release();
  }
}
