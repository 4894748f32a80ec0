// What the owner's page (docs/owner.md §7) reads and changes, always for one mailbox: every query
// names the mailbox key of the signed-in session, so a grant id of another mailbox finds nothing.
// A connection (grant) holds 1 to 10 mailboxes (./grant-mailboxes.ts, migration 16): "holds this
// mailbox" and its send policy are read from grant_mailboxes.
import type { Clock } from "../clock.ts";
import type { SendPolicy } from "../send-policy.ts";
import { ACTIVITY_RETENTION_MS, type ActivityLog, type ActivityOutcome, type ActivityDetails } from "./activity.ts";
import type { Db } from "./db.ts";
import { deleteGrants, recordMailboxRemoval, type MailboxRemoval } from "./revocations.ts";
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

/** The activity row of the person taking a held message off the page's list (its Message-ID in the details). */
export const DISMISS_HELD_TOOL = "owner:dismiss_held";

export class OwnerView {
  constructor(
    private readonly db: Db,
    private readonly activity: ActivityLog,
    private readonly clock: Clock,
  ) {}

  /** Live connections (an unexpired token) holding this mailbox, newest first. */
  async connectionsOf(mailboxKey: string): Promise<Connection[]> {
    const rows = await this.db.q<Record<string, unknown>>`
      SELECT g.id, g.client_id, MAX(c.client_name) AS client_name, g.redirect_uri, g.scope, MAX(m.send_policy) AS send_policy, g.created_at, g.last_used_at
        FROM grants g JOIN grant_mailboxes m ON m.grant_id = g.id JOIN tokens t ON t.grant_id = g.id LEFT JOIN clients c ON c.id = g.client_id
       WHERE m.mailbox_key = ${mailboxKey} AND t.expires_at > ${this.clock()}
       GROUP BY g.id ORDER BY g.created_at DESC, g.rowid DESC`;
    return rows.map((r) => ({
      grantId: r.id as string, clientId: r.client_id as string | null, clientName: r.client_name as string | null,
      redirectUri: r.redirect_uri as string | null, scope: r.scope as string, sendPolicy: r.send_policy as SendPolicy,
      createdAt: int(r.created_at), lastUsedAt: intOrNull(r.last_used_at),
    }));
  }

  /** Whether this live grant holds this mailbox: every action checks it first. */
  async holds(grantId: string, mailboxKey: string): Promise<boolean> {
    const [row] = await this.db.q`SELECT 1 AS one FROM grant_mailboxes WHERE grant_id = ${grantId} AND mailbox_key = ${mailboxKey}`;
    return Boolean(row);
  }

  /**
   * This mailbox's activity of the last 90 days, newest first, one page; `grantId` narrows it to one
   * connection. Rows carry the mailbox (schema 15): one backwards walk of activity_mailbox.
   */
  async activityOf(mailboxKey: string, opts: { grantId?: string; page?: number } = {}): Promise<ActivityPage> {
    const since = this.clock() - ACTIVITY_RETENTION_MS;
    const offset = Math.max(0, opts.page ?? 0) * ACTIVITY_PAGE_SIZE;
    const only = opts.grantId ?? null;
    const rows = await this.db.q<Record<string, unknown>>`
      SELECT id, at, grant_id, tool, outcome, sealed_details FROM activity
       WHERE mailbox_key = ${mailboxKey} AND at >= ${since} AND grant_id = COALESCE(${only}, grant_id)
       ORDER BY at DESC, id DESC LIMIT ${ACTIVITY_PAGE_SIZE + 1} OFFSET ${offset}`;
    const page = await Promise.all(rows.slice(0, ACTIVITY_PAGE_SIZE).map((r) => this.row(r)));
    return { rows: page, more: rows.length > ACTIVITY_PAGE_SIZE };
  }

  private async row(r: Record<string, unknown>): Promise<OwnerActivityRow> {
    const row = { id: int(r.id), at: int(r.at), grantId: r.grant_id as string, tool: r.tool as string, outcome: r.outcome as ActivityOutcome };
    return { ...row, details: await this.activity.openDetails(row, bytes(r.sealed_details)) };
  }

  /**
   * Messages the send gate left in Drafts for the person and not sent through this server since (nor
   * dismissed on the page), newest first, at most a page: from the activity log (the subjects are
   * kept apart, ./held-subjects.ts). Only the held rows and the later ones that could have sent such
   * a draft (the review card's Send, send_draft) or dismissed it are opened; the decision column finds
   * them without opening the rest. A draft sent from the person's mail app cannot be seen here.
   */
  async heldDraftsOf(mailboxKey: string): Promise<OwnerActivityRow[]> {
    const since = this.clock() - ACTIVITY_RETENTION_MS;
    const heldRows = await this.db.q<Record<string, unknown>>`
      SELECT id, at, grant_id, tool, outcome, sealed_details FROM activity
       WHERE at >= ${since} AND outcome = 'ok' AND decision IN ('held_as_draft', 'declined')
         AND mailbox_key = ${mailboxKey}
       ORDER BY at DESC, id DESC LIMIT ${ACTIVITY_PAGE_SIZE}`;
    if (!heldRows.length) return [];
    const oldest = int(heldRows[heldRows.length - 1]!.at);
    const sentRows = await this.db.q<Record<string, unknown>>`
      SELECT id, at, grant_id, tool, outcome, sealed_details FROM activity
       WHERE at >= ${oldest} AND outcome = 'ok' AND mailbox_key = ${mailboxKey}
         AND ((tool IN ('confirm_send', 'send_draft') AND decision IN ('sent_directly', 'confirmed')) OR tool = ${DISMISS_HELD_TOOL})`;
    const [held, sent] = await Promise.all([Promise.all(heldRows.map((r) => this.row(r))), Promise.all(sentRows.map((r) => this.row(r)))]);
    const sentLater = (h: OwnerActivityRow) => sent.some((x) => x.at >= h.at && x.details?.message_id === h.details?.message_id);
    return held.filter((h) => h.details?.message_id && !sentLater(h));
  }

  /** One held row of this mailbox (by its activity id), or null: what the page's "dismiss" names. */
  async heldRow(mailboxKey: string, id: number): Promise<OwnerActivityRow | null> {
    const [r] = await this.db.q<Record<string, unknown>>`
      SELECT id, at, grant_id, tool, outcome, sealed_details FROM activity
       WHERE id = ${id} AND mailbox_key = ${mailboxKey} AND outcome = 'ok' AND decision IN ('held_as_draft', 'declined')`;
    return r ? this.row(r) : null;
  }

  /** Revokes the grant if it holds this mailbox; its token ids (for the fan-out), or null when it does not. */
  async revokeConnection(grantId: string, mailboxKey: string): Promise<string[] | null> {
    return this.db.tx(async (tx) => {
      const [row] = await tx`SELECT 1 AS one FROM grant_mailboxes WHERE grant_id = ${grantId} AND mailbox_key = ${mailboxKey}`;
      return row ? deleteGrants(tx, this.db.dialect, [grantId], this.clock()) : null;
    });
  }

  /**
   * Takes this mailbox out of a connection: its row, and its sealed credentials with it, go; a
   * connection left without a mailbox can do nothing and is revoked (docs/owner.md §7). What ended:
   * the token ids revoked (none while other mailboxes remain) or the mailbox removed from each live
   * token (recorded for every instance, src/store/revocations.ts); null when the grant does not hold it.
   */
  async removeMailbox(grantId: string, mailboxKey: string): Promise<{ revoked: string[]; removed: MailboxRemoval[] } | null> {
    return this.db.tx(async (tx) => {
      const gone = await tx<{ position: unknown }[]>`DELETE FROM grant_mailboxes WHERE grant_id = ${grantId} AND mailbox_key = ${mailboxKey} RETURNING position`;
      if (!gone.length) return null;
      const [left] = await tx<{ n: unknown }[]>`SELECT COUNT(*) AS n FROM grant_mailboxes WHERE grant_id = ${grantId}`;
      if (Number(left?.n ?? 0) === 0) return { revoked: await deleteGrants(tx, this.db.dialect, [grantId], this.clock()), removed: [] };
      const removed: MailboxRemoval[] = [];
      for (const g of gone) removed.push(...(await recordMailboxRemoval(tx, this.db.dialect, grantId, Number(g.position), this.clock())));
      return { revoked: [], removed };
    });
  }

  /** Every connection of this mailbox revoked at once; their token ids. */
  async revokeAllOf(mailboxKey: string): Promise<{ grantIds: string[]; tokenIds: string[] }> {
    return this.db.tx(async (tx) => {
      const grants = await tx<{ id: string }[]>`SELECT DISTINCT grant_id AS id FROM grant_mailboxes WHERE mailbox_key = ${mailboxKey}`;
      const grantIds = grants.map((g) => g.id);
      return { grantIds, tokenIds: await deleteGrants(tx, this.db.dialect, grantIds, this.clock()) };
    });
  }

  /** The send policy of this mailbox in this connection; false when the grant does not hold it. */
  async setSendPolicy(grantId: string, mailboxKey: string, policy: SendPolicy): Promise<boolean> {
    const rows = await this.db.q`UPDATE grant_mailboxes SET send_policy = ${policy} WHERE grant_id = ${grantId} AND mailbox_key = ${mailboxKey} RETURNING position`;
    return rows.length >= 1;
  }
}
