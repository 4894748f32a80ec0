// Schema version 13 (../migrations.ts): where each grant's \Sent folder stood when the grant was made
// (src/store/sent-marks.ts; docs/design.md §3 "Send policy"). Under "new_recipients" only messages
// that were in \Sent before the grant existed make an address known: a UID below `uid_next` under
// that `uid_validity` (RFC 9051 §2.3.1.1: UIDs are never reused), so nothing a tool of this server
// moves, copies, labels or saves into \Sent later can count. `path` NULL: the mailbox had no \Sent
// folder then, and nothing in \Sent counts. Kept apart from `grants`, keyed by grant id, so other
// changes to the grant tables do not touch it.
import type { Migration } from "./migration.ts";

export const V13_SENT_MARKS: Migration = {
  sqlite: `
  CREATE TABLE sent_marks (
    grant_id     TEXT PRIMARY KEY REFERENCES grants(id) ON DELETE CASCADE,
    path         TEXT,
    uid_validity INTEGER NOT NULL,
    uid_next     INTEGER NOT NULL,
    at           INTEGER NOT NULL
  ) STRICT;
  `,
  postgres: `
  CREATE TABLE sent_marks (
    grant_id     TEXT PRIMARY KEY REFERENCES grants(id) ON DELETE CASCADE,
    path         TEXT,
    uid_validity BIGINT NOT NULL,
    uid_next     BIGINT NOT NULL,
    at           BIGINT NOT NULL
  );
  `,
};
