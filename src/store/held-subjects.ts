// The subjects of messages the send gate held as drafts (migration 18), for the owner's page only
// (docs/owner.md §7): the activity log keeps no subject, yet "held: to bob, Message-ID <…>" does
// not tell the person which message waits. Stored by the gate when it holds (src/sending/hold.ts),
// read by the page for the held rows it shows. The Message-ID is looked up by a keyed hash and the
// subject sealed under the records key (./crypto.ts): a database dump alone reveals neither.
import type { Clock } from "../clock.ts";
import { ownerKey, openRecord, sealRecord } from "./crypto.ts";
import type { Db } from "./db.ts";
import { grantOfScope, positionOfScope } from "./mailbox-scope.ts";
import { ACTIVITY_RETENTION_MS } from "./activity.ts";
import { bytes } from "./values.ts";

/** At most this many characters of a subject are kept. */
export const HELD_SUBJECT_MAX = 200;

/**
 * What is kept of a subject: control characters (C0, DEL, C1), bidi and other format characters
 * and line separators removed (they could reorder or hide what the page shows), at most 200 characters.
 */
export function keptSubject(subject: string): string {
  return [...subject.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, "")].slice(0, HELD_SUBJECT_MAX).join("").trim();
}

export class HeldSubjects {
  constructor(private readonly db: Db, private readonly masterKey: Uint8Array, private readonly clock: Clock) {}

  private idHash(mailboxKey: string, messageId: string): string {
    return ownerKey(this.masterKey, ["held-subject", mailboxKey, messageId]);
  }

  /** Keeps the subject of a message held in the mailbox named by `scope` (./mailbox-scope.ts); nothing for a mailbox not recorded. */
  async record(scope: string, messageId: string, subject: string): Promise<void> {
    const [row] = await this.db.q<{ mailbox_key: string | null }>`
      SELECT mailbox_key FROM grant_mailboxes WHERE grant_id = ${grantOfScope(scope)} AND position = ${positionOfScope(scope)}`;
    if (!row?.mailbox_key) return;
    const hash = this.idHash(row.mailbox_key, messageId);
    const sealed = await sealRecord(this.masterKey, { subject: keptSubject(subject) }, `held:${row.mailbox_key}:${hash}`);
    await this.db.q`INSERT INTO held_subjects (mailbox_key, id_hash, sealed, at) VALUES (${row.mailbox_key}, ${hash}, ${sealed}, ${this.clock()})
      ON CONFLICT (mailbox_key, id_hash) DO NOTHING`;
  }

  /** The subjects kept for these Message-IDs of this mailbox, by Message-ID (absent when none was kept). */
  async subjectsOf(mailboxKey: string, messageIds: readonly string[]): Promise<Map<string, string>> {
    const byHash = new Map(messageIds.map((id) => [this.idHash(mailboxKey, id), id]));
    const out = new Map<string, string>();
    if (!byHash.size) return out;
    const rows = await this.db.q<{ id_hash: string; sealed: unknown }>`
      SELECT id_hash, sealed FROM held_subjects WHERE mailbox_key = ${mailboxKey} AND id_hash IN ${this.db.list([...byHash.keys()])}`;
    for (const r of rows) {
      const { subject } = await openRecord<{ subject: string }>(this.masterKey, bytes(r.sealed), `held:${mailboxKey}:${r.id_hash}`);
      out.set(byHash.get(r.id_hash)!, subject);
    }
    return out;
  }

  /** Forgets one (the person dismissed it on the page). */
  async forget(mailboxKey: string, messageId: string): Promise<void> {
    await this.db.q`DELETE FROM held_subjects WHERE mailbox_key = ${mailboxKey} AND id_hash = ${this.idHash(mailboxKey, messageId)}`;
  }

  /** With the activity rows: after 90 days. */
  async purge(): Promise<void> {
    await this.db.q`DELETE FROM held_subjects WHERE at < ${this.clock() - ACTIVITY_RETENTION_MS}`;
  }
}
