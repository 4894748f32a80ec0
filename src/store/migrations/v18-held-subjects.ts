// Schema version 18 (../migrations.ts): the subject of each message the send gate held as a draft,
// so the owner's page can say which message waits (docs/owner.md §7); the activity log keeps no
// subject. Found by the mailbox's keyed hash and a keyed hash of the Message-ID (never in clear);
// the subject is sealed under the records key, so the database alone says nothing about it. Rows go
// with the activity rows they belong to (90 days, the periodic purge), or when the person dismisses
// the held message on the page.
import type { Migration } from "./migration.ts";

export const V18_HELD_SUBJECTS: Migration = {
  sqlite: `
  CREATE TABLE held_subjects (
    mailbox_key TEXT NOT NULL,
    id_hash TEXT NOT NULL,
    sealed BLOB NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (mailbox_key, id_hash)
  ) STRICT;
  CREATE INDEX held_subjects_age ON held_subjects(at);
  `,
  postgres: `
  CREATE TABLE held_subjects (
    mailbox_key TEXT NOT NULL,
    id_hash TEXT NOT NULL,
    sealed BYTEA NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (mailbox_key, id_hash)
  );
  CREATE INDEX held_subjects_age ON held_subjects(at);
  `,
};
