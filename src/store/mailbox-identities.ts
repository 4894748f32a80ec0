// The identities and signature of each mailbox (src/mail/identities/identity.ts), one row per mailbox
// keyed by its keyed hash (crypto.ts mailboxKey, the grants' mailbox_key), sealed under the records
// key like grant labels: independent of any connection, so every client connected to the mailbox
// sends as the same addresses and a new connect or the owner's page changes them for all.
import type { Clock } from "../clock.ts";
import { mailboxKey, openRecord, sealRecord } from "./crypto.ts";
import { grantOfScope, positionOfScope } from "./mailbox-scope.ts";
import type { Db } from "./db.ts";
import { bytes } from "./values.ts";

const aad = (key: string) => `identities:${key}`;

/**
 * What is stored: the shape of src/mail/identities/identity.ts IdentitySettings (the store names no
 * mail type). `signature` is the login address's; each listed address carries its own.
 */
export interface IdentitySettings {
  /** `signature` absent on `set`: keep the one stored for that address (none for a new one). */
  sendAs: Array<{ name: string | null; address: string; signature?: string | null }>;
  signature: string | null;
}

/** The sealed record; `v` absent: a record from before signatures per identity (one for the whole mailbox). */
interface Sealed extends IdentitySettings {
  v?: 2;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * A record sealed before signatures per identity had one signature for every address: each listed
 * address gets it, so what goes out does not change until the person edits it (read-time migration:
 * SQL cannot open a sealed record).
 */
function current(r: Sealed): IdentitySettings {
  const legacy = r.v === undefined;
  return { sendAs: r.sendAs.map((i) => ({ name: i.name, address: i.address, signature: (legacy ? r.signature : i.signature) ?? null })), signature: r.signature };
}

/** Addresses given without a signature keep the one stored for them (the setup form and the address list carry none). */
function merged(given: IdentitySettings, stored: IdentitySettings | null): Sealed {
  const keep = (address: string) => stored?.sendAs.find((i) => same(i.address, address))?.signature ?? null;
  return { v: 2, sendAs: given.sendAs.map((i) => ({ name: i.name, address: i.address, signature: i.signature === undefined ? keep(i.address) : i.signature })), signature: given.signature };
}

export class MailboxIdentities {
  constructor(private readonly db: Db, private readonly masterKey: Uint8Array, private readonly clock: Clock) {}

  /** The key of a mailbox login (as src/oauth/setup/connect.ts names logins). */
  keyOf(login: string): string {
    return mailboxKey(this.masterKey, login);
  }

  /** What the person set for the mailbox, or null when nothing was ever set. */
  async get(key: string): Promise<IdentitySettings | null> {
    const [row] = await this.db.q<{ sealed: unknown }>`SELECT sealed FROM mailbox_identities WHERE mailbox_key = ${key}`;
    return row ? current(await openRecord<Sealed>(this.masterKey, bytes(row.sealed), aad(key))) : null;
  }

  /** Replaces the mailbox's identities and signatures; a listed address without `signature` keeps its stored one. */
  async set(key: string, settings: IdentitySettings): Promise<void> {
    const needsStored = settings.sendAs.some((i) => i.signature === undefined);
    const sealed = await sealRecord(this.masterKey, merged(settings, needsStored ? await this.get(key) : null), aad(key));
    const now = this.clock();
    await this.db.q`INSERT INTO mailbox_identities (mailbox_key, sealed, updated_at) VALUES (${key}, ${sealed}, ${now})
      ON CONFLICT (mailbox_key) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`;
  }

  /**
   * The settings of one mailbox of a connection, named by its scope (./mailbox-scope.ts: the grant id
   * alone is its first mailbox), or null (none set, or the mailbox is gone).
   */
  async forGrant(scope: string): Promise<IdentitySettings | null> {
    const [row] = await this.db.q<{ mailbox_key: string | null }>`
      SELECT mailbox_key FROM grant_mailboxes WHERE grant_id = ${grantOfScope(scope)} AND position = ${positionOfScope(scope)}`;
    return row?.mailbox_key ? this.get(row.mailbox_key) : null;
  }
}
