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
  // 4: what must hold across instances sharing one store (docs/deploy.md): the events behind every
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
