// Schema version 14 (../migrations.ts): the addresses a mailbox also sends as, and its signature,
// per mailbox and independent of any connection (grant): a mailbox connected through several
// clients, or later through several connections, has one set, which the setup form and the owner's
// page edit and the sending tools read (src/store/mailbox-identities.ts). Keyed by the mailbox's
// keyed hash (crypto.ts mailboxKey, as grants.mailbox_key), the values sealed under the records key:
// the database alone names no address.
import type { Migration } from "./migration.ts";

export const V14_IDENTITIES: Migration = {
  sqlite: `
  CREATE TABLE mailbox_identities (
    mailbox_key TEXT PRIMARY KEY,
    sealed BLOB NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  `,
  postgres: `
  CREATE TABLE mailbox_identities (
    mailbox_key TEXT PRIMARY KEY,
    sealed BYTEA NOT NULL,
    updated_at BIGINT NOT NULL
  );
  `,
};
