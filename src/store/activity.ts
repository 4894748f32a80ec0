// The activity log (docs/design.md §4, docs/owner.md §4): one row per write tool call, what it touched and
// how it ended, never a body or an attachment. Time, grant, tool and outcome are in clear (to filter
// and purge); the details (folders, uids, recipients, Message-ID, error line) are sealed like grant
// labels, so the database alone says nothing about whom the person mails. Rows outlive their grant
// and go after 90 days (GrantStore.purgeExpired).
import type { Clock } from "../clock.ts";
import { DecryptError, openRecord, sealRecord } from "./crypto.ts";
import type { Db } from "./db.ts";
import { bytes, int } from "./values.ts";

export const ACTIVITY_RETENTION_MS = 90 * 86_400_000;

export type ActivityOutcome = "ok" | "error";

/** What a call touched; every field optional, filled by each write tool's `activity` mapping (src/mcp/tools/write/). */
export interface ActivityDetails {
  /** The mailbox of the connection the call worked in (its address), sealed with the rest. */
  account?: string | null;
  folder?: string | null;
  destination?: string;
  uids?: number[];
  recipients?: string[];
  message_id?: string | null;
  /** For replies: the message answered. */
  reply_to?: { folder: string; uid: number };
  /** For forwards: the message forwarded. */
  forward_of?: { folder: string; uid: number };
  /** Mailbox parts attached by reference. */
  attached_from?: Array<{ folder: string; uid: number; part: string }>;
  /** update_draft: the uid of the new draft (`uids` holds the one it replaced). */
  new_uid?: number | null;
  /** mark_as_read: the state set. */
  read?: boolean;
  /** flag_email: the state set. */
  flagged?: boolean;
  /** label_email: the labels (or keywords) added and removed. */
  labels?: { add: string[]; remove: string[] };
  /** rename_folder: the folder's new path (`folder` is the old one); create_folder / delete_folder name theirs in `folder`. */
  new_path?: string;
  /** Sending tools: the identity (address) the message went out from, or would have for a dry run. */
  from?: string;
  /** send_email: recipients the SMTP server refused. */
  rejected?: string[];
  /** move_email: new uids in the destination. */
  moved?: Array<{ uid: number; new_uid: number | null }>;
  /**
   * Sending tools: what the send gate decided (sent_directly, confirmed, declined, held_as_draft,
   * dry_run, or repeat: a retried request answered with its first outcome). docs/owner.md §4.
   */
  decision?: string;
  /** The owner's page changed a connection's send policy to this (docs/owner.md §7). */
  send_policy?: string;
  /** The first line of the error the caller saw. */
  error?: string;
}

export interface ActivityEntry {
  grantId: string;
  /** The mailbox the row is about; by default the grant's (src/store/owner-view.ts finds rows by it). */
  mailboxKey?: string;
  tool: string;
  outcome: ActivityOutcome;
  details: ActivityDetails;
}

export interface ActivityRow extends Omit<ActivityEntry, "details"> {
  id: number;
  at: number;
  /** Null when this master key cannot open them. */
  details: ActivityDetails | null;
}

export interface ActivityFilter {
  /** A grant id or a prefix of one (hex). */
  grant?: string;
  /** Only rows at or after this time (ms). */
  since?: number;
}

export class ActivityLog {
  constructor(
    private readonly db: Db,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  async record(entry: ActivityEntry): Promise<void> {
    const at = this.clock();
    const sealed = await sealRecord(this.masterKey, entry.details, `activity:${entry.grantId}:${at}`);
    // The mailbox is kept with the row: it outlives its grant, and the owner's page lists rows by mailbox.
    await this.db.q`INSERT INTO activity (at, grant_id, tool, outcome, sealed_details, decision, mailbox_key)
      VALUES (${at}, ${entry.grantId}, ${entry.tool}, ${entry.outcome}, ${sealed}, ${entry.details.decision ?? null},
              COALESCE(${entry.mailboxKey ?? null}, (SELECT mailbox_key FROM grants WHERE id = ${entry.grantId})))`;
  }

  /** Matching rows, oldest first. */
  async list(filter: ActivityFilter = {}): Promise<ActivityRow[]> {
    const prefix = (filter.grant ?? "").toLowerCase();
    const rows = await this.db.q<Record<string, unknown>>`
      SELECT id, at, grant_id, tool, outcome, sealed_details FROM activity
       WHERE at >= ${filter.since ?? 0} AND substr(grant_id, 1, ${prefix.length}) = ${prefix} ORDER BY at, id`;
    return Promise.all(rows.map(async (r) => {
      const row = { id: int(r.id), at: int(r.at), grantId: r.grant_id as string, tool: r.tool as string, outcome: r.outcome as ActivityOutcome };
      return { ...row, details: await this.open(row, bytes(r.sealed_details)) };
    }));
  }

  /** open() for the owner's page (src/store/owner-view.ts): the same sealing, one place. */
  openDetails(row: { grantId: string; at: number }, sealed: Uint8Array): Promise<ActivityDetails | null> {
    return this.open(row, sealed);
  }

  private async open(row: { grantId: string; at: number }, sealed: Uint8Array): Promise<ActivityDetails | null> {
    try {
      return await openRecord<ActivityDetails>(this.masterKey, sealed, `activity:${row.grantId}:${row.at}`);
    } catch (err) {
      if (err instanceof DecryptError) return null;
      throw err;
    }
  }
}
