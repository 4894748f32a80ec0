// Schema version 10 (../migrations.ts): signing in at an OAuth mail provider (docs/design.md §5).
//
// `upstream_flows`: one row per sign-in sent to a provider from the setup form, under the SHA-256 of
// its `state`, tied to the pending authorization it serves (and gone with it) and to the browser that
// started it (SHA-256 of a cookie secret). `sealed` holds the PKCE verifier and the form's ids and
// choices, sealed under a key derived from the master key and the state itself, which only the
// provider's redirect brings back (src/store/upstream-flows.ts).
//
// `grants.sign_in_lost_at`: when the provider said the grant's refresh token is dead (`invalid_grant`:
// consent revoked, password changed). Nothing secret: tools then answer "reconnect the mailbox" without
// asking the provider again, and `mailbox-mcp grants` shows it.
import type { Migration } from "./migration.ts";

export const V10: Migration = {
  sqlite: `
  ALTER TABLE grants ADD COLUMN sign_in_lost_at INTEGER;

  CREATE TABLE upstream_flows (
    state_hash      TEXT PRIMARY KEY,
    pending_id_hash TEXT NOT NULL REFERENCES pending_requests(id_hash) ON DELETE CASCADE,
    binding_hash    TEXT NOT NULL,
    provider        TEXT NOT NULL,
    sealed          BLOB NOT NULL,
    expires_at      INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX upstream_flows_pending ON upstream_flows(pending_id_hash);
  CREATE INDEX upstream_flows_age ON upstream_flows(expires_at);
  `,
  postgres: `
  ALTER TABLE grants ADD COLUMN sign_in_lost_at BIGINT;

  CREATE TABLE upstream_flows (
    state_hash      TEXT PRIMARY KEY,
    pending_id_hash TEXT NOT NULL REFERENCES pending_requests(id_hash) ON DELETE CASCADE,
    binding_hash    TEXT NOT NULL,
    provider        TEXT NOT NULL,
    sealed          BYTEA NOT NULL,
    expires_at      BIGINT NOT NULL
  );
  CREATE INDEX upstream_flows_pending ON upstream_flows(pending_id_hash);
  CREATE INDEX upstream_flows_age ON upstream_flows(expires_at);
  `,
};
