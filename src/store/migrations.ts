// Schema history: index i upgrades user_version i → i+1. Never edit a shipped entry; append.
// Secrets (request ids, CSRF tokens, codes, access tokens) appear only as SHA-256 hashes;
// credentials only sealed (see crypto.ts and docs/oauth.md).
export const migrations: string[] = [
  `
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
  // Who a grant is for (keyed HMAC of client id + mailbox login, never the login in clear), so a
  // new connect can replace the older grants of the same login and client (oauth/connect.ts).
  // Grants made before this migration have none and are never replaced.
  `
  ALTER TABLE grants ADD COLUMN owner_key TEXT;
  CREATE INDEX grants_owner ON grants(owner_key, created_at);
  `,
  // 2025-era MCP sessions (src/store/mcp-sessions.ts): a row per Mcp-Session-Id, so a restart or
  // another instance on the same store serves it. The id is kept only as a SHA-256 hash; `init` is
  // the client's initialize params (version, capabilities, name), replayed to rebuild the session.
  // A session dies with its token (revocation deletes the grant, which deletes the token).
  `
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
];
