// Where a grant's \Sent folder stood when the grant was made (../sent-mark.ts; docs/design.md §3
// "Send policy"): its path, UIDVALIDITY and UIDNEXT. Under "new_recipients" only a message below that UIDNEXT, in that
// folder under that UIDVALIDITY, makes an address known from \Sent: it was there before this server
// could touch the mailbox. Taken at connect (the live IMAP login); for a grant made before schema 13,
// at its first send check. Rows go with their grant (ON DELETE CASCADE). Keyed by the mailbox's scope
// (./mailbox-scope.ts, migration 16): each mailbox of a connection has its own mark.
import type { Clock } from "../clock.ts";
import type { SentMark } from "../sent-mark.ts";
import type { Db, Sql } from "./db.ts";
import { int } from "./values.ts";
import { grantOfScope } from "./mailbox-scope.ts";

export class SentMarks {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The grant's mark, or null when none was taken (a grant from before schema 13). */
  async get(grantId: string): Promise<SentMark | null> {
    const [row] = await this.db.q<{ path: string | null; uid_validity: unknown; uid_next: unknown }>`
      SELECT path, uid_validity, uid_next FROM sent_marks WHERE scope = ${grantId}`;
    return row ? { path: row.path, uidValidity: int(row.uid_validity), uidNext: int(row.uid_next) } : null;
  }

  /**
   * Records the mark unless one is already kept (the first one taken stands: a later one would let
   * what tools placed in \Sent meanwhile count). Returns the mark that holds.
   */
  async keepFirst(grantId: string, mark: SentMark): Promise<SentMark> {
    await this.db.tx((tx) => keepSentMark(tx, grantId, mark, this.clock()));
    return (await this.get(grantId)) ?? mark;
  }
}

/** Inserts a grant's mark in the caller's transaction unless it has one (./grants.ts, at the grant's making). */
export async function keepSentMark(tx: Sql, grantId: string, mark: SentMark, now: number): Promise<void> {
  await tx`INSERT INTO sent_marks (scope, grant_id, path, uid_validity, uid_next, at)
    VALUES (${grantId}, ${grantOfScope(grantId)}, ${mark.path}, ${mark.uidValidity}, ${mark.uidNext}, ${now})
    ON CONFLICT (scope) DO NOTHING`;
}
