// Schema versions 1 to 4 (../migrations.ts): the base tables, grant owners, who holds pending
// requests, registered clients. Shipped: never edit, append in v5-v8.ts or a later file.
import type { Migration } from "./migration.ts";

export const V1_TO_V4: Migration[] = [
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
];
