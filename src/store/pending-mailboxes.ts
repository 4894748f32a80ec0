// The mailboxes a setup page has verified so far, before the connection's code is issued
// (docs/design.md §3 "Several mailboxes in one connection": "add another mailbox after this one").
// Kept with the pending authorization, sealed under HMAC(master key, request id): the request id is
// stored only as a hash and lives in the person's form, so the database, or the database and the
// master key, open none of these passwords. They go with the pending row (issued, expired, purged).
import { createHmac } from "node:crypto";
import { open, seal } from "./crypto.ts";
import type { Db } from "./db.ts";
import type { NewMailbox } from "./grant-mailboxes.ts";
import type { PendingRequest } from "./grant-records.ts";
import { bytes } from "./values.ts";

interface Kept extends Omit<NewMailbox, "credentials"> {
  credentials: string;
}

export class PendingMailboxes {
  constructor(private readonly db: Db, private readonly masterKey: Uint8Array) {}

  private keyOf(requestId: string): Uint8Array {
    return new Uint8Array(createHmac("sha256", this.masterKey).update(`mailbox-mcp pending mailboxes v1\0${requestId}`, "utf8").digest());
  }

  /** The mailboxes verified so far for this request, in order; [] when none. */
  async list(requestId: string, pending: PendingRequest): Promise<NewMailbox[]> {
    const [row] = await this.db.q<{ sealed_mailboxes: unknown }>`SELECT sealed_mailboxes FROM pending_requests WHERE id_hash = ${pending.idHash}`;
    if (row?.sealed_mailboxes == null) return [];
    const plain = await open(this.keyOf(requestId), bytes(row.sealed_mailboxes), `pending:${pending.idHash}`);
    const kept = JSON.parse(new TextDecoder().decode(plain)) as Kept[];
    plain.fill(0);
    return kept.map((k) => ({ ...k, credentials: new Uint8Array(Buffer.from(k.credentials, "base64")) }));
  }

  /** Replaces the list kept for this request. */
  async keep(requestId: string, pending: PendingRequest, mailboxes: readonly NewMailbox[]): Promise<void> {
    const kept: Kept[] = mailboxes.map((m) => ({ ...m, credentials: Buffer.from(m.credentials).toString("base64") }));
    const sealed = await seal(this.keyOf(requestId), new TextEncoder().encode(JSON.stringify(kept)), `pending:${pending.idHash}`);
    await this.db.q`UPDATE pending_requests SET sealed_mailboxes = ${sealed} WHERE id_hash = ${pending.idHash}`;
  }
}
