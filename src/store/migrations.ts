// Schema history, for both dialects: entry i upgrades schema version i → i+1 (SQLite keeps it in
// PRAGMA user_version, Postgres in schema_version; see schema.ts). Never edit a shipped entry; append
// one with both dialects. Secrets (request ids, CSRF tokens, codes, access tokens) appear only as
// SHA-256 hashes; credentials only sealed (see crypto.ts and docs/oauth.md).
//
// Postgres differs in types only (BIGINT milliseconds, BYTEA), plus `grants.rowid`: an identity
// column named after SQLite's implicit rowid, so one query orders grants by insertion on both.

export interface Migration {
  sqlite: string;
  postgres: string;
}

export const migrations: Migration[] = [
  // 1: pending authorizations, grants with their sealed credentials, codes, tokens.
  {
    sqlite: `
  CREATE TABLE pending_requests (
    id_hash        TEXT PRIMARY KEY,
    csrf_hash      TEXT NOT NULL,
    redirect_uri   TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    state          TEXT NOT NULL,
    resource       TEXT,
    expires_at     INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE grants (
    id                 TEXT PRIMARY KEY,
    sealed_credentials BLOB NOT NULL,
    created_at         INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE codes (
    code_hash      TEXT PRIMARY KEY,
    grant_id       TEXT NOT NULL,
    wrapped_key    BLOB,
    code_challenge TEXT NOT NULL,
    redirect_uri   TEXT NOT NULL,
    resource       TEXT,
    expires_at     INTEGER NOT NULL,
    used_at        INTEGER,
    token_hash     TEXT
  ) STRICT;

  CREATE TABLE tokens (
    token_hash  TEXT PRIMARY KEY,
    grant_id    TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
    wrapped_key BLOB NOT NULL,
    scope       TEXT NOT NULL,
    resource    TEXT,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
  ) STRICT;

  CREATE INDEX pending_expiry ON pending_requests(expires_at);
  CREATE INDEX codes_expiry ON codes(expires_at);
  CREATE INDEX tokens_expiry ON tokens(expires_at);
  `,
    postgres: `
  CREATE TABLE pending_requests (
    id_hash        TEXT PRIMARY KEY,
    csrf_hash      TEXT NOT NULL,
    redirect_uri   TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    state          TEXT NOT NULL,
    resource       TEXT,
    expires_at     BIGINT NOT NULL
  );

  CREATE TABLE grants (
    id                 TEXT PRIMARY KEY,
    sealed_credentials BYTEA NOT NULL,
    created_at         BIGINT NOT NULL,
    rowid              BIGINT GENERATED ALWAYS AS IDENTITY
  );

  CREATE TABLE codes (
    code_hash      TEXT PRIMARY KEY,
    grant_id       TEXT NOT NULL,
    wrapped_key    BYTEA,
    code_challenge TEXT NOT NULL,
    redirect_uri   TEXT NOT NULL,
    resource       TEXT,
    expires_at     BIGINT NOT NULL,
    used_at        BIGINT,
    token_hash     TEXT
  );

  CREATE TABLE tokens (
    token_hash  TEXT PRIMARY KEY,
    grant_id    TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
    wrapped_key BYTEA NOT NULL,
    scope       TEXT NOT NULL,
    resource    TEXT,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
  );

  CREATE INDEX pending_expiry ON pending_requests(expires_at);
  CREATE INDEX codes_expiry ON codes(expires_at);
  CREATE INDEX tokens_expiry ON tokens(expires_at);
  `,
  },
  // 2: who a grant is for (keyed HMAC of client id + mailbox login, never the login in clear), so a
  // new connect can replace the older grants of the same login and client (oauth/connect.ts).
  // Grants made before this migration have none and are never replaced.
  {
    sqlite: `
  ALTER TABLE grants ADD COLUMN owner_key TEXT;
  CREATE INDEX grants_owner ON grants(owner_key, created_at);
  `,
    postgres: `
  ALTER TABLE grants ADD COLUMN owner_key TEXT;
  CREATE INDEX grants_owner ON grants(owner_key, created_at);
  `,
  },
  // 3: who opened each pending authorization (the client's limiter key, IPv6 by /64), so one client's
  // share can be bounded and a full table can shed the biggest holder (docs/oauth.md §5).
  {
    sqlite: `
  ALTER TABLE pending_requests ADD COLUMN client_key TEXT;
  CREATE INDEX pending_client ON pending_requests(client_key, expires_at);
  `,
    postgres: `
  ALTER TABLE pending_requests ADD COLUMN client_key TEXT;
  CREATE INDEX pending_client ON pending_requests(client_key, expires_at);
  `,
  },
  // 4: RFC 7591 registered clients (docs/oauth.md §9). A client secret appears only as its SHA-256.
  // Pending requests and codes remember which client asked; NULL (rows from before) = the configured client.
  {
    sqlite: `
  CREATE TABLE clients (
    id            TEXT PRIMARY KEY,
    secret_hash   TEXT,
    auth_method   TEXT NOT NULL,
    client_name   TEXT,
    redirect_uris TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    granted_at    INTEGER
  ) STRICT;

  CREATE INDEX clients_activity ON clients(COALESCE(granted_at, created_at));

  ALTER TABLE pending_requests ADD COLUMN client_id TEXT;
  ALTER TABLE codes ADD COLUMN client_id TEXT;
  `,
    postgres: `
  CREATE TABLE clients (
    id            TEXT PRIMARY KEY,
    secret_hash   TEXT,
    auth_method   TEXT NOT NULL,
    client_name   TEXT,
    redirect_uris TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    granted_at    BIGINT
  );

  CREATE INDEX clients_activity ON clients((COALESCE(granted_at, created_at)));

  ALTER TABLE pending_requests ADD COLUMN client_id TEXT;
  ALTER TABLE codes ADD COLUMN client_id TEXT;
  `,
  },
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
