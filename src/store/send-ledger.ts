// At-most-once delivery (docs/design.md §3 "Send policy"): one row per grant and message digest for
// ten minutes. The first request to claim a digest sends; a retry of the same message (after a
// broken stream, a timeout, an instance dying mid-call) finds the row and gets the first outcome
// instead of a second copy. The claim is one INSERT … ON CONFLICT DO NOTHING, so two instances
// racing on one store let exactly one through. The digest is a keyed HMAC of what the message says
// (src/store/send-ledger.ts digest); the outcome (recipients, Message-ID) is sealed like activity details.
import type { Clock } from "../clock.ts";
import { createHmac } from "node:crypto";
import { DecryptError, openRecord, sealRecord } from "./crypto.ts";
import type { Db, Sql } from "./db.ts";
import { bytes, int } from "./values.ts";

/** How long a message counts as "the same request" (the retry window). */
export const LEDGER_WINDOW_MS = 10 * 60_000;

/** `sending`: claimed, the outcome not known yet. `done`: the outcome is stored. */
export type LedgerState = "sending" | "done";

export interface LedgerEntry<T> {
  state: LedgerState;
  createdAt: number;
  /** Last change: when the claim was taken or the outcome stored. */
  updatedAt: number;
  /** While sending, what was known at the claim (if anything); null when this master key cannot open it. */
  outcome: T | null;
}

export type Claim<T> = { claimed: true } | { claimed: false; entry: LedgerEntry<T> };

export class SendLedger {
  constructor(
    private readonly db: Db,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /**
   * The digest of what a message says (any JSON value; object keys in any order give the same
   * digest): HMAC-SHA256 under the master key, so the table cannot be checked against a guess.
   */
  digest(content: unknown): string {
    return createHmac("sha256", this.masterKey).update(`mailbox-mcp send v1\0${canonicalJson(content)}`, "utf8").digest("hex");
  }

  /** The digest's entry within the window, or null. */
  async find<T>(grantId: string, digest: string): Promise<LedgerEntry<T> | null> {
    const [row] = await this.db.q<Record<string, unknown>>`
      SELECT state, created_at, updated_at, sealed_outcome FROM send_ledger
       WHERE grant_id = ${grantId} AND digest = ${digest} AND created_at > ${this.clock() - LEDGER_WINDOW_MS}`;
    return row ? this.entry<T>(grantId, digest, row) : null;
  }

  /**
   * Takes the digest for this request, or returns who holds it. A row older than the window is
   * replaced: the same message sent again later is a new message.
   */
  async claim<T>(grantId: string, digest: string, pending: T | null = null): Promise<Claim<T>> {
    // What is known before the outcome (the Message-ID), for a retry that finds the send under way.
    const sealed = pending === null ? null : await this.seal(grantId, digest, pending);
    const inserted = await this.db.tx((tx) => this.claimIn(tx, grantId, digest, sealed));
    if (inserted) return { claimed: true };
    const entry = await this.find<T>(grantId, digest);
    // Gone between the two statements (purged, released): claim again.
    return entry ? { claimed: false, entry } : this.claim<T>(grantId, digest, pending);
  }

  /** The claim inside the caller's transaction (./send-claims.ts): true when taken. */
  async claimIn(tx: Sql, grantId: string, digest: string, sealedPending: Uint8Array | null): Promise<boolean> {
    const now = this.clock();
    await tx`DELETE FROM send_ledger WHERE grant_id = ${grantId} AND digest = ${digest} AND created_at <= ${now - LEDGER_WINDOW_MS}`;
    const rows = await tx`INSERT INTO send_ledger (grant_id, digest, state, created_at, updated_at, sealed_outcome)
      VALUES (${grantId}, ${digest}, 'sending', ${now}, ${now}, ${sealedPending}) ON CONFLICT (grant_id, digest) DO NOTHING RETURNING digest`;
    return rows.length === 1;
  }

  /** A value sealed for this digest's row (an outcome, or what is known while sending). */
  seal<T>(grantId: string, digest: string, value: T): Promise<Uint8Array> {
    return sealRecord(this.masterKey, value, aad(grantId, digest));
  }

  /**
   * Takes a digest whose outcome was "held" back for sending (the person confirmed it on the review
   * card): a finished entry becomes "sending" again, a missing one is claimed as new. An entry
   * still sending is someone else's send under way: then not taken.
   */
  async reclaim(grantId: string, digest: string): Promise<boolean> {
    return this.db.tx((tx) => this.reclaimIn(tx, grantId, digest));
  }

  async reclaimIn(tx: Sql, grantId: string, digest: string): Promise<boolean> {
    const now = this.clock();
    const reopened = await tx`UPDATE send_ledger SET state = 'sending', created_at = ${now}, updated_at = ${now}, sealed_outcome = NULL
      WHERE grant_id = ${grantId} AND digest = ${digest} AND state = 'done' RETURNING digest`;
    return reopened.length === 1 || this.claimIn(tx, grantId, digest, null);
  }

  /** Stores the outcome of a claimed digest: what every retry within the window gets. */
  async finish<T>(grantId: string, digest: string, outcome: T): Promise<void> {
    const sealed = await this.seal(grantId, digest, outcome);
    await this.db.tx((tx) => this.finishIn(tx, grantId, digest, sealed));
  }

  async finishIn(tx: Sql, grantId: string, digest: string, sealedOutcome: Uint8Array): Promise<void> {
    await tx`UPDATE send_ledger SET state = 'done', updated_at = ${this.clock()}, sealed_outcome = ${sealedOutcome}
              WHERE grant_id = ${grantId} AND digest = ${digest}`;
  }

  /** Gives a claim back: nothing left (the send failed before the server took it), so a retry may try again. */
  async release(grantId: string, digest: string): Promise<void> {
    await this.db.tx((tx) => this.releaseIn(tx, grantId, digest));
  }

  async releaseIn(tx: Sql, grantId: string, digest: string): Promise<void> {
    await tx`DELETE FROM send_ledger WHERE grant_id = ${grantId} AND digest = ${digest} AND state = 'sending'`;
  }

  /** Deletes rows that left the window (the purge, src/oauth/rate-limits/purge.ts). */
  async purge(): Promise<void> {
    await this.db.q`DELETE FROM send_ledger WHERE created_at <= ${this.clock() - LEDGER_WINDOW_MS}`;
  }

  private async entry<T>(grantId: string, digest: string, row: Record<string, unknown>): Promise<LedgerEntry<T>> {
    const sealed = row.sealed_outcome == null ? null : bytes(row.sealed_outcome);
    let outcome: T | null = null;
    if (sealed) {
      try {
        outcome = await openRecord<T>(this.masterKey, sealed, aad(grantId, digest));
      } catch (err) {
        if (!(err instanceof DecryptError)) throw err;
      }
    }
    return { state: row.state as LedgerState, createdAt: int(row.created_at), updatedAt: int(row.updated_at), outcome };
  }
}

const aad = (grantId: string, digest: string) => `send:${grantId}:${digest}`;

/** JSON with object keys sorted at every level: one text for one value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v);
}
