// Schema versions 5 to 8 (../migrations.ts): the owner's view and the revocation signal, the
// activity log, MCP session rows, and what instances sharing a store need (limit events, key check).
import type { Migration } from "./migration.ts";

export const V5_TO_V8: Migration[] = [
  // 5: the owner's view (docs/owner.md). A grant records its client, redirect URI, scope (read-only
  // grants: "email:read"), when it was last used, and a label (mailbox address and mail host)
  // sealed under a key derived from the master key, so the database alone names no mailbox.
  // A pending request keeps the scope it asked for. `revocations` is the cross-process signal: every
  // revoked token id with a monotonically increasing seq that running servers poll.
  {
    sqlite: `
  ALTER TABLE grants ADD COLUMN client_id TEXT;
  ALTER TABLE grants ADD COLUMN redirect_uri TEXT;
  ALTER TABLE grants ADD COLUMN scope TEXT NOT NULL DEFAULT 'email:read email:write';
  ALTER TABLE grants ADD COLUMN sealed_label BLOB;
  ALTER TABLE grants ADD COLUMN last_used_at INTEGER;
  ALTER TABLE pending_requests ADD COLUMN scope TEXT;

  CREATE TABLE revocations (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    token_id   TEXT NOT NULL,
    revoked_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX revocations_age ON revocations(revoked_at);
  `,
    postgres: `
  ALTER TABLE grants ADD COLUMN client_id TEXT;
  ALTER TABLE grants ADD COLUMN redirect_uri TEXT;
  ALTER TABLE grants ADD COLUMN scope TEXT NOT NULL DEFAULT 'email:read email:write';
  ALTER TABLE grants ADD COLUMN sealed_label BYTEA;
  ALTER TABLE grants ADD COLUMN last_used_at BIGINT;
  ALTER TABLE pending_requests ADD COLUMN scope TEXT;

  CREATE TABLE revocations (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    token_id   TEXT NOT NULL,
    revoked_at BIGINT NOT NULL
  );
  CREATE INDEX revocations_age ON revocations(revoked_at);
  `,
  },
  // 6: the activity log (docs/owner.md): one row per write tool call. Time, grant, tool and outcome in
  // clear (for filtering and purging); folder, uids, recipients, Message-ID and the error line sealed
  // like grant labels. No foreign key: a revoked grant's rows stay until they age out (90 days).
  {
    sqlite: `
  CREATE TABLE activity (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    at             INTEGER NOT NULL,
    grant_id       TEXT NOT NULL,
    tool           TEXT NOT NULL,
    outcome        TEXT NOT NULL,
    sealed_details BLOB NOT NULL
  ) STRICT;
  CREATE INDEX activity_time ON activity(at);
  CREATE INDEX activity_grant ON activity(grant_id, at);
  `,
    postgres: `
  CREATE TABLE activity (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at             BIGINT NOT NULL,
    grant_id       TEXT NOT NULL,
    tool           TEXT NOT NULL,
    outcome        TEXT NOT NULL,
    sealed_details BYTEA NOT NULL
  );
  CREATE INDEX activity_time ON activity(at);
  CREATE INDEX activity_grant ON activity(grant_id, at);
  `,
  },
  // 7: 2025-era MCP sessions (src/store/mcp-sessions.ts): a row per Mcp-Session-Id, so a restart or
  // another instance on the same store serves it. The id is kept only as a SHA-256 hash; `init` is
  // the client's initialize params (version, capabilities, name), replayed to rebuild the session.
  // A session dies with its token (revocation deletes the grant, which deletes the token).
  {
    sqlite: `
  CREATE TABLE mcp_sessions (
    id_hash    TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL REFERENCES tokens(token_hash) ON DELETE CASCADE,
    init       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX mcp_sessions_token ON mcp_sessions(token_hash, last_seen);
  CREATE INDEX mcp_sessions_seen ON mcp_sessions(last_seen);
  `,
    postgres: `
  CREATE TABLE mcp_sessions (
    id_hash    TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL REFERENCES tokens(token_hash) ON DELETE CASCADE,
    init       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_seen  BIGINT NOT NULL,
    rowid      BIGINT GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX mcp_sessions_token ON mcp_sessions(token_hash, last_seen);
  CREATE INDEX mcp_sessions_seen ON mcp_sessions(last_seen);
  `,
  },
  // 8: what must hold across instances sharing one store (docs/deploy.md): the events behind every
  // rate limit (bucket = which limit, key = keyed HMAC of who, never an address in clear; slot = one
  // reservation, so it can be released), and store_meta (the master key's check value, key-check.ts).
  // The grant_id indexes serve revocation (ON DELETE CASCADE, replaced grants) without a table scan.
  {
    sqlite: `
  CREATE TABLE limit_events (
    bucket TEXT NOT NULL,
    key    TEXT NOT NULL,
    at     INTEGER NOT NULL,
    slot   TEXT NOT NULL
  ) STRICT;
  CREATE INDEX limit_events_key ON limit_events(bucket, key, at);
  CREATE INDEX limit_events_age ON limit_events(bucket, at);
  CREATE INDEX limit_events_slot ON limit_events(slot);

  CREATE TABLE store_meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  CREATE INDEX tokens_grant ON tokens(grant_id);
  CREATE INDEX codes_grant ON codes(grant_id);
  `,
    postgres: `
  CREATE TABLE limit_events (
    bucket TEXT NOT NULL,
    key    TEXT NOT NULL,
    at     BIGINT NOT NULL,
    slot   TEXT NOT NULL
  );
  CREATE INDEX limit_events_key ON limit_events(bucket, key, at);
  CREATE INDEX limit_events_age ON limit_events(bucket, at);
  CREATE INDEX limit_events_slot ON limit_events(slot);

  CREATE TABLE store_meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

  CREATE INDEX tokens_grant ON tokens(grant_id);
  CREATE INDEX codes_grant ON codes(grant_id);
  `,
  },
];
