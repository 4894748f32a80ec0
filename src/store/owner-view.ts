// What the owner's page (docs/owner.md §7) reads and changes, always for one mailbox: every query
// names the mailbox key of the signed-in session, so a grant id of another mailbox finds nothing.
// Today a connection (grant) holds one mailbox, `grants.mailbox_key`; when connections hold several,
// these methods are the one place to point at the per-mailbox table.
import type { Clock } from "../clock.ts";
import type { SendPolicy } from "../send-policy.ts";
import { ACTIVITY_RETENTION_MS, type ActivityLog, type ActivityOutcome, type ActivityDetails } from "./activity.ts";
import type { Db } from "./db.ts";
import { deleteGrants } from "./revocations.ts";
import { bytes, int, intOrNull } from "./values.ts";

export interface Connection {
  grantId: string;
  clientId: string | null;
  /** A registered client's self-declared name (unchecked), else null. */
  clientName: string | null;
  redirectUri: string | null;
  scope: string;
  sendPolicy: SendPolicy;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface OwnerActivityRow {
  id: number;
  at: number;
  grantId: string;
  tool: string;
  outcome: ActivityOutcome;
  details: ActivityDetails | null;
}

export interface ActivityPage {
  rows: OwnerActivityRow[];
  /** Whether an older page exists. */
  more: boolean;
}

export const ACTIVITY_PAGE_SIZE = 50;

/** Decisions of the send gate that leave a message in Drafts, and those that mean it went out after all. */
const HELD = new Set(["held_as_draft", "declined"]);
const SENT = new Set(["sent_directly", "confirmed"]);

export class OwnerView {
  constructor(
    private readonly db: Db,
    private readonly activity: ActivityLog,
    private readonly clock: Clock,
  ) {}

  /** Live connections (an unexpired token) holding this mailbox, newest first. */
  async connectionsOf(mailboxKey: string): Promise<Connection[]> {
    const rows = await this.db.q<Record<string, unknown>>`
      SELECT g.id, g.client_id, MAX(c.client_name) AS client_name, g.redirect_uri, g.scope, g.send_policy, g.created_at, g.last_used_at
        FROM grants g JOIN tokens t ON t.grant_id = g.id LEFT JOIN clients c ON c.id = g.client_id
       WHERE g.mailbox_key = ${mailboxKey} AND t.expires_at > ${this.clock()}
       GROUP BY g.id ORDER BY g.created_at DESC, g.rowid DESC`;
    return rows.map((r) => ({
      grantId: r.id as string, clientId: r.client_id as string | null, clientName: r.client_name as string | null,
      redirectUri: r.redirect_uri as string | null, scope: r.scope as string, sendPolicy: r.send_policy as SendPolicy,
      createdAt: int(r.created_at), lastUsedAt: intOrNull(r.last_used_at),
    }));
  }

  /** Whether this live grant holds this mailbox: every action checks it first. */
  async holds(grantId: string, mailboxKey: string): Promise<boolean> {
    const [row] = await this.db.q`SELECT 1 AS one FROM grants WHERE id = ${grantId} AND mailbox_key = ${mailboxKey}`;
    return Boolean(row);
  }

  /**
   * This mailbox's activity of the last 90 days, newest first, one page; `grantId` narrows it to one
   * connection. Rows carry the mailbox (schema 13); older ones are found through their live grant.
   */
  async activityOf(mailboxKey: string, opts: { grantId?: string; page?: number } = {}): Promise<ActivityPage> {
    const since = this.clock() - ACTIVITY_RETENTION_MS;
    const offset = Math.max(0, opts.page ?? 0) * ACTIVITY_PAGE_SIZE;
    const only = opts.grantId ?? null;
    const rows = await this.db.q<Record<string, unknown>>`
      SELECT id, at, grant_id, tool, outcome, sealed_details FROM activity
       WHERE at >= ${since} AND grant_id = COALESCE(${only}, grant_id)
         AND (mailbox_key = ${mailboxKey} OR (mailbox_key IS NULL AND grant_id IN (SELECT id FROM grants WHERE mailbox_key = ${mailboxKey})))
       ORDER BY at DESC, id DESC LIMIT ${ACTIVITY_PAGE_SIZE + 1} OFFSET ${offset}`;
    const page = await Promise.all(rows.slice(0, ACTIVITY_PAGE_SIZE).map((r) => this.row(r)));
    return { rows: page, more: rows.length > ACTIVITY_PAGE_SIZE };
  }

  private async row(r: Record<string, unknown>): Promise<OwnerActivityRow> {
    const row = { id: int(r.id), at: int(r.at), grantId: r.grant_id as string, tool: r.tool as string, outcome: r.outcome as ActivityOutcome };
    return { ...row, details: await this.activity.openDetails(row, bytes(r.sealed_details)) };
  }

  /**
   * Messages the send gate left in Drafts for the person and not sent since (a later row with the
   * same Message-ID that went out), newest first: from the activity log, which keeps no subject.
   */
  async heldDraftsOf(mailboxKey: string): Promise<OwnerActivityRow[]> {
    const since = this.clock() - ACTIVITY_RETENTION_MS;
    const rows = await this.db.q<Record<string, unknown>>`
      SELECT id, at, grant_id, tool, outcome, sealed_details FROM activity
       WHERE at >= ${since} AND outcome = 'ok' AND tool IN ('send_email', 'send_draft', 'confirm_send')
         AND (mailbox_key = ${mailboxKey} OR (mailbox_key IS NULL AND grant_id IN (SELECT id FROM grants WHERE mailbox_key = ${mailboxKey})))
       ORDER BY at, id`;
    const held = new Map<string, OwnerActivityRow>();
    for (const r of await Promise.all(rows.map((x) => this.row(x)))) {
      const id = r.details?.message_id;
      if (!id) continue;
      if (HELD.has(r.details?.decision ?? "")) held.set(id, r);
      else if (SENT.has(r.details?.decision ?? "")) held.delete(id);
    }
    return [...held.values()].reverse();
  }

  /** Revokes the grant if it holds this mailbox; its token ids (for the fan-out), or null when it does not. */
  async revokeConnection(grantId: string, mailboxKey: string): Promise<string[] | null> {
    return this.db.tx(async (tx) => {
      const [row] = await tx`SELECT 1 AS one FROM grants WHERE id = ${grantId} AND mailbox_key = ${mailboxKey}`;
      return row ? deleteGrants(tx, this.db.dialect, [grantId], this.clock()) : null;
    });
  }

  /**
   * Takes this mailbox out of a connection. A connection holds one mailbox today, so that is
   * revoking it: a connection without a mailbox can do nothing (docs/owner.md §7).
   */
  removeMailbox(grantId: string, mailboxKey: string): Promise<string[] | null> {
    return this.revokeConnection(grantId, mailboxKey);
  }

  /** Every connection of this mailbox revoked at once; their token ids. */
  async revokeAllOf(mailboxKey: string): Promise<{ grantIds: string[]; tokenIds: string[] }> {
    return this.db.tx(async (tx) => {
      const grants = await tx<{ id: string }[]>`SELECT id FROM grants WHERE mailbox_key = ${mailboxKey}`;
      const grantIds = grants.map((g) => g.id);
      return { grantIds, tokenIds: await deleteGrants(tx, this.db.dialect, grantIds, this.clock()) };
    });
  }

  /** The send policy of this mailbox in this connection; false when the grant does not hold it. */
  async setSendPolicy(grantId: string, mailboxKey: string, policy: SendPolicy): Promise<boolean> {
    const rows = await this.db.q`UPDATE grants SET send_policy = ${policy} WHERE id = ${grantId} AND mailbox_key = ${mailboxKey} RETURNING id`;
    return rows.length === 1;
  }
}
