// Schema version 17 (../migrations.ts): the owner's page signs in through an OAuth mail provider too
// (docs/owner.md §7). Such a sign-in serves no pending authorization, so `upstream_flows.pending_id_hash`
// may be NULL; what the sign-in is for travels sealed in the row (src/store/upstream-flows.ts), never in
// the callback's query. SQLite cannot drop a NOT NULL in place: the table is rebuilt, rows kept
// (SQLite docs, "ALTER TABLE", §7 "Making Other Kinds Of Table Schema Changes").
import type { Migration } from "./migration.ts";

export const V17_ACCOUNT_FLOWS: Migration = {
  sqlite: `
  CREATE TABLE upstream_flows_v17 (
    state_hash      TEXT PRIMARY KEY,
    pending_id_hash TEXT REFERENCES pending_requests(id_hash) ON DELETE CASCADE,
    binding_hash    TEXT NOT NULL,
    provider        TEXT NOT NULL,
    sealed          BLOB NOT NULL,
    expires_at      INTEGER NOT NULL
  ) STRICT;
  INSERT INTO upstream_flows_v17 (state_hash, pending_id_hash, binding_hash, provider, sealed, expires_at)
    SELECT state_hash, pending_id_hash, binding_hash, provider, sealed, expires_at FROM upstream_flows;
  DROP TABLE upstream_flows;
  ALTER TABLE upstream_flows_v17 RENAME TO upstream_flows;
  CREATE INDEX upstream_flows_pending ON upstream_flows(pending_id_hash);
  CREATE INDEX upstream_flows_age ON upstream_flows(expires_at);
  `,
  postgres: `
  ALTER TABLE upstream_flows ALTER COLUMN pending_id_hash DROP NOT NULL;
  `,
};
