// Schema version 16 (../migrations.ts): several mailboxes in one connection (docs/design.md §3
// "Several mailboxes in one connection"). A grant holds 1 to 10 mailboxes, one row each:
//   - position: 0, 1, … in the order they were connected; never renumbered (a removed mailbox leaves
//     a gap), so "grant + position" names one mailbox for the send ledger, caps and recipients;
//   - mailbox_key: the keyed hash of the address (crypto.ts mailboxKey), what `revoke <address>` finds;
//   - sealed_label: address and host, sealed under the master key like grants.sealed_label;
//   - access, send_policy, sign_in_lost_at: what were the grant's, now the mailbox's;
//   - sealed_credentials: sealed under the grant's ONE data key (wrapped only by code or token), with
//     the AAD kept in `aad`: existing grants keep `grant:<id>` (so their tokens keep working); new
//     mailboxes are sealed with `grant:<id>:mailbox:<position>`, so one row's blob cannot stand in
//     for another's. Deleting a row destroys that mailbox's credentials; deleting the grant, all.
//   - pending_requests.sealed_mailboxes: the mailboxes a setup page has verified so far ("add another
//     mailbox"), their credentials included, until the code is issued; sealed under a key derived
//     from the master key AND the request id, which the store keeps only as a hash (../pending-mailboxes.ts).
//   - sent_marks (migration 13) keyed by the mailbox's scope (../mailbox-scope.ts: the grant id for the
//     first mailbox, so existing marks stay their grant's), each mailbox's \Sent watermark its own.
// Every existing grant becomes a one-mailbox connection; the grant's own copy of the blob is
// emptied (x'') so the database holds each password once.
import type { Migration } from "./migration.ts";

const copy = `
  INSERT INTO grant_mailboxes (grant_id, position, mailbox_key, sealed_label, provider, access, send_policy, sign_in_lost_at, sealed_credentials, aad)
  SELECT id, 0, mailbox_key, sealed_label, NULL,
         CASE WHEN scope LIKE '%email:write%' THEN 'read_write' ELSE 'read' END,
         send_policy, sign_in_lost_at, sealed_credentials, 'grant:' || id
    FROM grants;`;

export const V16_GRANT_MAILBOXES: Migration = {
  sqlite: `
  CREATE TABLE grant_mailboxes (
    grant_id           TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
    position           INTEGER NOT NULL,
    mailbox_key        TEXT,
    sealed_label       BLOB,
    provider           TEXT,
    access             TEXT NOT NULL,
    send_policy        TEXT NOT NULL,
    sign_in_lost_at    INTEGER,
    sealed_credentials BLOB NOT NULL,
    aad                TEXT NOT NULL,
    PRIMARY KEY (grant_id, position)
  ) STRICT;
  CREATE INDEX grant_mailboxes_key ON grant_mailboxes(mailbox_key);
  ${copy}
  UPDATE grants SET sealed_credentials = x'';
  ALTER TABLE pending_requests ADD COLUMN sealed_mailboxes BLOB;
  CREATE TABLE sent_marks_by_scope (
    scope        TEXT PRIMARY KEY,
    grant_id     TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
    path         TEXT,
    uid_validity INTEGER NOT NULL,
    uid_next     INTEGER NOT NULL,
    at           INTEGER NOT NULL
  ) STRICT;
  INSERT INTO sent_marks_by_scope (scope, grant_id, path, uid_validity, uid_next, at)
    SELECT grant_id, grant_id, path, uid_validity, uid_next, at FROM sent_marks;
  DROP TABLE sent_marks;
  ALTER TABLE sent_marks_by_scope RENAME TO sent_marks;
  `,
  postgres: `
  CREATE TABLE grant_mailboxes (
    grant_id           TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
    position           INTEGER NOT NULL,
    mailbox_key        TEXT,
    sealed_label       BYTEA,
    provider           TEXT,
    access             TEXT NOT NULL,
    send_policy        TEXT NOT NULL,
    sign_in_lost_at    BIGINT,
    sealed_credentials BYTEA NOT NULL,
    aad                TEXT NOT NULL,
    PRIMARY KEY (grant_id, position)
  );
  CREATE INDEX grant_mailboxes_key ON grant_mailboxes(mailbox_key);
  ${copy}
  UPDATE grants SET sealed_credentials = ''::bytea;
  ALTER TABLE pending_requests ADD COLUMN sealed_mailboxes BYTEA;
  ALTER TABLE sent_marks ADD COLUMN scope TEXT;
  UPDATE sent_marks SET scope = grant_id;
  ALTER TABLE sent_marks ALTER COLUMN scope SET NOT NULL;
  ALTER TABLE sent_marks DROP CONSTRAINT sent_marks_pkey;
  ALTER TABLE sent_marks ADD PRIMARY KEY (scope);
  `,
};
