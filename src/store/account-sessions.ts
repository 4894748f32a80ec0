// Signed-in browsers on the owner's page (docs/owner.md §7): a random id in a cookie, only its
// SHA-256 here, so any instance on the store serves the session and the database alone cannot be
// replayed as a cookie. A session ends after 30 minutes unused, 12 hours after sign-in at most, or
// at "Sign out"; what it may see is the mailbox key it signed in as, never anything the browser sends.
import type { Clock } from "../clock.ts";
import { DecryptError, hashSecret, openRecord, randomHex, sealRecord } from "./crypto.ts";
import type { Db } from "./db.ts";
import { bytes, int } from "./values.ts";

export const ACCOUNT_IDLE_MS = 30 * 60_000;
export const ACCOUNT_MAX_MS = 12 * 3600_000;
/** Written at most this often: every page view need not be a write. */
const TOUCH_EVERY_MS = 60_000;

export interface AccountSession {
  idHash: string;
  mailboxKey: string;
  /** The address signed in with (what the page greets). */
  email: string;
  createdAt: number;
}

export class AccountSessions {
  constructor(
    private readonly db: Db,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /** A new session for this mailbox; its id goes into the cookie and nowhere else. */
  async open(mailboxKey: string, email: string): Promise<string> {
    const id = randomHex(32);
    const idHash = hashSecret(id);
    const sealed = await sealRecord(this.masterKey, { email }, `account:${idHash}`);
    const now = this.clock();
    await this.db.q`INSERT INTO account_sessions (id_hash, mailbox_key, sealed_label, created_at, seen_at)
      VALUES (${idHash}, ${mailboxKey}, ${sealed}, ${now}, ${now})`;
    return id;
  }

  /** The live session of this cookie value, its use noted; null when unknown, ended, idle or too old. */
  async find(id: string): Promise<AccountSession | null> {
    const now = this.clock();
    const idHash = hashSecret(id);
    const [row] = await this.db.q<Record<string, unknown>>`
      SELECT mailbox_key, sealed_label, created_at, seen_at FROM account_sessions
       WHERE id_hash = ${idHash} AND seen_at > ${now - ACCOUNT_IDLE_MS} AND created_at > ${now - ACCOUNT_MAX_MS}`;
    if (!row) return null;
    let email: string;
    try {
      ({ email } = await openRecord<{ email: string }>(this.masterKey, bytes(row.sealed_label), `account:${idHash}`));
    } catch (err) {
      if (err instanceof DecryptError) return null;
      throw err;
    }
    if (now - int(row.seen_at) >= TOUCH_EVERY_MS) await this.db.q`UPDATE account_sessions SET seen_at = ${now} WHERE id_hash = ${idHash}`;
    return { idHash, mailboxKey: row.mailbox_key as string, email, createdAt: int(row.created_at) };
  }

  /** Sign out: the row goes, so the cookie is worth nothing anywhere. */
  async end(idHash: string): Promise<void> {
    await this.db.q`DELETE FROM account_sessions WHERE id_hash = ${idHash}`;
  }

  /** Idle or too old sessions go with the periodic purge. */
  async purgeExpired(): Promise<void> {
    const now = this.clock();
    await this.db.q`DELETE FROM account_sessions WHERE seen_at <= ${now - ACCOUNT_IDLE_MS} OR created_at <= ${now - ACCOUNT_MAX_MS}`;
  }
}
