// Schema version 9 (../migrations.ts): who owns a grant, across clients. `owner_key` (migration 2) is an
// HMAC of the client id *and* the mailbox login, for replacing a login's grants through one client;
// `mailbox_key` is an HMAC of the login alone (the IMAP login name and host:port, keyed with the master
// key, so the database still names no mailbox), so that the server-wide session cap can tell one person
// from another, whatever client or token they use (src/store/mcp-sessions.ts, docs/decisions.md
// "Per-account limits"). Grants made before have none: each counts as an owner of its own.
import type { Migration } from "./migration.ts";

export const V9: Migration[] = [
  {
    sqlite: `
  ALTER TABLE grants ADD COLUMN mailbox_key TEXT;
  `,
    postgres: `
  ALTER TABLE grants ADD COLUMN mailbox_key TEXT;
  `,
  },
];
