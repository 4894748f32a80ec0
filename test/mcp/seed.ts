// Seeds a private folder of varied messages for the read-tool tests and remembers each message's
// uid, raw text and flags, so results can be compared with what was put in.
import { ImapFlow } from "imapflow";
import type { DovecotServer, MailUser } from "../support/dovecot.ts";
import * as fx from "../support/mail-fixtures.ts";

export interface Seeded {
  name: string;
  raw: string;
  uid: number;
  flags: string[];
}

/** Invisible and control characters a sender could hide instructions in. */
export const SNEAKY_BODY = "Pay\u200Bpal \u202Eevil\u202C ok\u0007 done\u00AD \u{E0041}\u{E0042}end\n";
export const LONG_BODY = Array.from({ length: 1500 }, (_, i) => `line ${String(i).padStart(4, "0")} of a long message.`).join("\n") + "\n";

function messages(): Array<{ name: string; raw: string; flags: string[] }> {
  const seen = ["\\Seen"];
  const base = fx.fixtureSet().map(({ name, raw }) => ({
    name, raw,
    flags: name === "html" || name === "utf8" || name === "thread-3" ? [] : name === "attachment" ? ["\\Seen", "\\Flagged"] : seen,
  }));
  return [
    ...base,
    { name: "sneaky", raw: fx.plainText({ subject: "Sneaky\u200B subject\u202E" }, SNEAKY_BODY), flags: seen },
    { name: "long", raw: fx.plainText({ subject: "Long body" }, LONG_BODY), flags: seen },
    {
      name: "reply-to",
      raw: fx.plainText({ subject: "With Reply-To", headers: { "Reply-To": `"Help Desk" <help@example.net>, plain@example.net` } }),
      flags: seen,
    },
  ];
}

export function imapClient(dovecot: DovecotServer, u: MailUser): ImapFlow {
  return new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, logger: false, auth: { user: u.user, pass: u.pass } });
}

export async function withImap<T>(dovecot: DovecotServer, u: MailUser, fn: (c: ImapFlow) => Promise<T>): Promise<T> {
  const c = imapClient(dovecot, u);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.logout().catch(() => c.close());
  }
}

/** Creates `folder` and `folder/Sub`, appends the varied set in order; UIDs follow the order. */
export async function seedVaried(dovecot: DovecotServer, u: MailUser, folder: string): Promise<Seeded[]> {
  return withImap(dovecot, u, async (c) => {
    await c.mailboxCreate(folder);
    await c.mailboxCreate(`${folder}/Sub`);
    const out: Seeded[] = [];
    for (const m of messages()) {
      const res = await c.append(folder, m.raw, m.flags);
      if (!res || !res.uid) throw new Error(`append ${m.name} failed`);
      out.push({ ...m, uid: res.uid });
    }
    await c.append(`${folder}/Sub`, fx.plainText({ subject: "In the sub-folder" }), ["\\Seen"]);
    return out;
  });
}

/** The flags of one message, read directly (to check a tool left them alone). */
export async function flagsOf(dovecot: DovecotServer, u: MailUser, folder: string, uid: number): Promise<Set<string>> {
  return withImap(dovecot, u, async (c) => {
    const lock = await c.getMailboxLock(folder, { readOnly: true });
    try {
      const m = await c.fetchOne(String(uid), { flags: true }, { uid: true });
      return m ? (m.flags ?? new Set()) : new Set();
    } finally {
      lock.release();
    }
  });
}
