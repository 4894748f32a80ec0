// The mailboxes of a connection (migration 16, docs/design.md §3 "Several mailboxes in one
// connection"): one row per mailbox, its credentials sealed under the grant's one data key (only the
// code or token unwraps it), its label under the master key. Read by the MCP runtime (which
// mailboxes a token may name, each one's policy) and by the owner's `revoke <address>`.
import type { Clock } from "../clock.ts";
import { isSendPolicy, LEGACY_SEND_POLICY, type SendPolicy } from "../send-policy.ts";
import { DecryptError, hashSecret, mailboxKey, open, openRecord, seal, sealRecord, unwrapDataKey } from "./crypto.ts";
import type { Db, Sql } from "./db.ts";
import type { GrantLabel } from "./grant-records.ts";
import { deleteGrant, recordMailboxRemoval, type MailboxRemoval } from "./revocations.ts";
import { bytes, intOrNull } from "./values.ts";
import { mailboxScope } from "./mailbox-scope.ts";
import { keepSentMark } from "./sent-marks.ts";
import type { SentMark } from "../sent-mark.ts";

/** At most this many mailboxes in one connection. */
export const MAX_MAILBOXES = 10;

export type MailboxAccess = "read" | "read_write";

/** One mailbox about to be sealed into a new grant. */
export interface NewMailbox {
  credentials: Uint8Array;
  /** The login (username and host, as grants.mailbox_key) its mailbox_key is made of. */
  login: string;
  label: GrantLabel;
  provider: string;
  access: MailboxAccess;
  sendPolicy: SendPolicy;
  /** Where its \Sent folder stood at its login (./sent-marks.ts), kept under the mailbox's scope. */
  sentMark?: SentMark;
}

/** A mailbox of a connection as the runtime sees it: never its credentials. */
export interface MailboxRow {
  position: number;
  /** Its keyed hash (grants' mailbox_key): what the owner's page and the activity rows know it by. */
  mailboxKey: string | null;
  /** The address, from the sealed label; null for grants older than labels (migration 5). */
  address: string | null;
  provider: string | null;
  access: MailboxAccess;
  sendPolicy: SendPolicy;
  signInLost: boolean;
}

/** The AAD of a new mailbox's sealed credentials: names grant and mailbox, so rows cannot be swapped. */
export const mailboxAad = (grantId: string, position: number) => `grant:${grantId}:mailbox:${position}`;

/** Inside issueCode's transaction: seal and insert the grant's mailboxes, in order. */
export async function insertMailboxes(tx: Sql, masterKey: Uint8Array, grantId: string, dataKey: Uint8Array,
  mailboxes: readonly NewMailbox[], now: number): Promise<void> {
  for (const [position, m] of mailboxes.entries()) {
    const aad = mailboxAad(grantId, position);
    const sealed = await seal(dataKey, m.credentials, aad);
    const label = await sealRecord(masterKey, m.label, `label:${grantId}:${position}`);
    await tx`INSERT INTO grant_mailboxes (grant_id, position, mailbox_key, sealed_label, provider, access, send_policy, sign_in_lost_at, sealed_credentials, aad)
      VALUES (${grantId}, ${position}, ${mailboxKey(masterKey, m.login)}, ${label}, ${m.provider}, ${m.access}, ${m.sendPolicy}, NULL, ${sealed}, ${aad})`;
    if (m.sentMark) await keepSentMark(tx, mailboxScope(grantId, position), m.sentMark, now);
  }
}

export class GrantMailboxes {
  constructor(private readonly db: Db, private readonly masterKey: Uint8Array, private readonly clock: Clock) {}

  /** The grant's mailboxes in connection order; [] when the grant is gone. */
  async list(grantId: string): Promise<MailboxRow[]> {
    const rows = await this.db.q<Record<string, unknown>>`
      SELECT position, mailbox_key, sealed_label, provider, access, send_policy, sign_in_lost_at, aad FROM grant_mailboxes
       WHERE grant_id = ${grantId} ORDER BY position`;
    return Promise.all(rows.map(async (r) => ({
      position: Number(r.position),
      mailboxKey: r.mailbox_key as string | null,
      address: (await this.label(grantId, r))?.email.toLowerCase() || null,
      provider: r.provider as string | null,
      access: r.access === "read" ? "read" : "read_write",
      sendPolicy: isSendPolicy(r.send_policy as string) ? r.send_policy as SendPolicy : LEGACY_SEND_POLICY,
      signInLost: intOrNull(r.sign_in_lost_at) !== null,
    } satisfies MailboxRow)));
  }

  /** A migrated row's label is the grant's (`label:<id>`); a new one names its position. */
  private async label(grantId: string, r: Record<string, unknown>): Promise<GrantLabel | null> {
    if (r.sealed_label == null) return null;
    const legacy = r.aad === `grant:${grantId}`;
    try {
      return await openRecord<GrantLabel>(this.masterKey, bytes(r.sealed_label), legacy ? `label:${grantId}` : `label:${grantId}:${r.position}`);
    } catch (err) {
      if (err instanceof DecryptError) return null;
      throw err;
    }
  }

  /** Unwrap the grant's data key with `token` and open one mailbox's credentials; null when token or mailbox is gone. */
  async open(token: string, position: number): Promise<Uint8Array | null> {
    const [row] = await this.db.q<{ wrapped_key: unknown; sealed_credentials: unknown; grant_id: string; aad: string }>`
      SELECT t.wrapped_key, m.sealed_credentials, t.grant_id, m.aad
        FROM tokens t JOIN grant_mailboxes m ON m.grant_id = t.grant_id
       WHERE t.token_hash = ${hashSecret(token)} AND t.expires_at > ${this.clock()} AND m.position = ${position}`;
    if (!row) return null;
    const dataKey = await unwrapDataKey(this.masterKey, token, bytes(row.wrapped_key), `grant:${row.grant_id}`);
    try {
      return await open(dataKey, bytes(row.sealed_credentials), row.aad);
    } finally {
      dataKey.fill(0);
    }
  }

  /** The mailbox's send policy, read when a message is about to go out; null when it is gone. */
  async sendPolicy(grantId: string, position: number): Promise<SendPolicy | null> {
    const [row] = await this.db.q<{ send_policy: string }>`
      SELECT send_policy FROM grant_mailboxes WHERE grant_id = ${grantId} AND position = ${position}`;
    if (!row) return null;
    return isSendPolicy(row.send_policy) ? row.send_policy : LEGACY_SEND_POLICY;
  }

  /**
   * `mailbox-mcp revoke <address>`: the mailbox leaves every connection holding it (its row, and with
   * it its sealed credentials, is deleted); a connection left with none is revoked as a whole. The
   * labels are opened to find it (the master key is at hand in the CLI; mailbox_key hashes the
   * login with its host, which an address alone does not name). Returns the grants touched, the
   * tokens revoked and the mailboxes removed from live tokens, for the revocation fan-out (a running
   * server, this one or another, reads both from the revocation rows: src/store/revocations.ts).
   */
  async removeAddress(address: string): Promise<{ grants: string[]; revokedGrants: string[]; revokedTokens: string[]; removed: MailboxRemoval[] }> {
    const wanted = address.trim().toLowerCase();
    const rows = await this.db.q<Record<string, unknown>>`SELECT grant_id, position, sealed_label, aad FROM grant_mailboxes`;
    const hits: { grantId: string; position: number }[] = [];
    for (const r of rows) {
      const label = await this.label(r.grant_id as string, r);
      if (label?.email.toLowerCase() === wanted) hits.push({ grantId: r.grant_id as string, position: Number(r.position) });
    }
    const now = this.clock();
    return this.db.tx(async (tx) => {
      const revokedTokens: string[] = [];
      const revokedGrants: string[] = [];
      const removed: MailboxRemoval[] = [];
      for (const { grantId, position } of hits) {
        await tx`DELETE FROM grant_mailboxes WHERE grant_id = ${grantId} AND position = ${position}`;
        const [left] = await tx<{ n: unknown }[]>`SELECT COUNT(*) AS n FROM grant_mailboxes WHERE grant_id = ${grantId}`;
        if (Number(left?.n ?? 0) > 0) {
          removed.push(...(await recordMailboxRemoval(tx, this.db.dialect, grantId, position, now)));
          continue;
        }
        revokedGrants.push(grantId);
        revokedTokens.push(...(await deleteGrant(tx, this.db.dialect, grantId, now)));
      }
      return { grants: [...new Set(hits.map((h) => h.grantId))], revokedGrants, revokedTokens, removed };
    });
  }
}
