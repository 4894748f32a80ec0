// Whom a grant has delivered mail to (docs/design.md §3 "Send policy": a new recipient is an address
// the mailbox has never written to, neither in its Sent folder nor through this grant). Kept as
// keyed HMACs of the lower-cased address under the master key, so the table names nobody; the rows
// go with their grant (ON DELETE CASCADE). `grantId` here is a mailbox scope (./mailbox-scope.ts): the
// HMAC is taken over it, so each mailbox of a connection knows only whom it wrote to.
import { createHmac } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Db, Sql } from "./db.ts";
import { grantOfScope } from "./mailbox-scope.ts";

export class SendRecipients {
  constructor(
    private readonly db: Db,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  private keyOf(grantId: string, address: string): string {
    return createHmac("sha256", this.masterKey).update(`mailbox-mcp recipient v1\0${grantId}\0${address.toLowerCase()}`, "utf8").digest("hex");
  }

  /** Notes that the grant delivered mail to `addresses`. */
  async add(grantId: string, addresses: readonly string[]): Promise<void> {
    if (addresses.length) await this.db.tx((tx) => this.addIn(tx, grantId, addresses));
  }

  /** add() inside the caller's transaction (./send-claims.ts notes them with the send's outcome). */
  async addIn(tx: Sql, grantId: string, addresses: readonly string[]): Promise<void> {
    const now = this.clock();
    for (const key of new Set(addresses.map((a) => this.keyOf(grantId, a)))) {
      await tx`INSERT INTO send_recipients (grant_id, addr_key, at) VALUES (${grantOfScope(grantId)}, ${key}, ${now})
               ON CONFLICT (grant_id, addr_key) DO UPDATE SET at = ${now}`;
    }
  }

  /** The addresses among `addresses` this grant has delivered mail to. */
  async known(grantId: string, addresses: readonly string[]): Promise<Set<string>> {
    if (!addresses.length) return new Set();
    const byKey = new Map(addresses.map((a) => [this.keyOf(grantId, a), a]));
    const rows = await this.db.q<{ addr_key: string }>`
      SELECT addr_key FROM send_recipients WHERE grant_id = ${grantOfScope(grantId)} AND addr_key IN ${this.db.list([...byKey.keys()])}`;
    return new Set(rows.map((r) => byKey.get(r.addr_key)!));
  }
}
