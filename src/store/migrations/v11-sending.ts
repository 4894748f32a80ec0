// Schema version 11 (../migrations.ts; the lead numbers it at merge): what the send gate keeps
// (docs/design.md §3 "Send policy", src/sending/).
//   - grants.send_policy: never | new_recipients | always | direct. Grants made before it keep
//     what they could do then, sending without asking (the column default); every grant made since
//     gets the policy chosen on the setup form.
//   - send_ledger: at-most-once delivery. One row per grant and message digest (a keyed HMAC of what
//     the message says, never the message) for 10 minutes: a retried request finds the first
//     outcome there instead of sending again. The outcome is sealed like the activity details.
//   - send_recipients: whom a grant has delivered mail to, as keyed HMACs of the addresses, so "a
//     new recipient" can be told without keeping addresses in clear. Goes with the grant.
//   - send_confirmations: single-use nonces of confirmation requests (requestState, review cards).
//   - mcp_session_answers: a client's answer to a server request (elicitation) that reached an
//     instance other than the one waiting for it, relayed through the store (2025-era sessions).
import type { Migration } from "./migration.ts";

export const V11_SENDING: Migration = {
  sqlite: `
  ALTER TABLE grants ADD COLUMN send_policy TEXT NOT NULL DEFAULT 'direct';

  CREATE TABLE send_ledger (
    grant_id       TEXT NOT NULL,
    digest         TEXT NOT NULL,
    state          TEXT NOT NULL,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    sealed_outcome BLOB,
    PRIMARY KEY (grant_id, digest)
  ) STRICT;
  CREATE INDEX send_ledger_age ON send_ledger(created_at);

  CREATE TABLE send_recipients (
    grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
    addr_key TEXT NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (grant_id, addr_key)
  ) STRICT;

  CREATE TABLE send_confirmations (
    nonce_hash TEXT PRIMARY KEY,
    grant_id   TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
  ) STRICT;
  CREATE INDEX send_confirmations_age ON send_confirmations(expires_at);

  CREATE TABLE mcp_session_answers (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    session_key TEXT NOT NULL,
    body        TEXT NOT NULL,
    at          INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX mcp_session_answers_session ON mcp_session_answers(session_key, id);
  `,
  postgres: `
  ALTER TABLE grants ADD COLUMN send_policy TEXT NOT NULL DEFAULT 'direct';

  CREATE TABLE send_ledger (
    grant_id       TEXT NOT NULL,
    digest         TEXT NOT NULL,
    state          TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL,
    sealed_outcome BYTEA,
    PRIMARY KEY (grant_id, digest)
  );
  CREATE INDEX send_ledger_age ON send_ledger(created_at);

  CREATE TABLE send_recipients (
    grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
    addr_key TEXT NOT NULL,
    at       BIGINT NOT NULL,
    PRIMARY KEY (grant_id, addr_key)
  );

  CREATE TABLE send_confirmations (
    nonce_hash TEXT PRIMARY KEY,
    grant_id   TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
  );
  CREATE INDEX send_confirmations_age ON send_confirmations(expires_at);

  CREATE TABLE mcp_session_answers (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_key TEXT NOT NULL,
    body        TEXT NOT NULL,
    at          BIGINT NOT NULL
  );
  CREATE INDEX mcp_session_answers_session ON mcp_session_answers(session_key, id);
  `,
};
