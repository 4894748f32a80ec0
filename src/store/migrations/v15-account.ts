// Schema version 15 (../migrations.ts): the owner's page (docs/owner.md §7).
//
// `account_sessions`: a signed-in browser on /account. Only the SHA-256 of its random id is kept, so
// the database alone cannot be replayed as a cookie; `mailbox_key` is the keyed hash of the mailbox
// login the grants already carry (crypto.ts mailboxKey): what the session may see. `sealed_label`
// is the address it signed in with, sealed under the records key like a grant's label.
// `activity.mailbox_key`: the mailbox a row belongs to, so the page still finds the rows of a
// connection revoked since (rows outlive their grant) and the owner's own actions; older rows get
// their live grant's (rows of grants revoked before this version have none and are not shown). `activity.decision`: the send gate's
// decision word (held_as_draft, confirmed…), in clear like the tool and outcome, so the held drafts
// are found without opening every sealed row (it says nothing of whom or what was sent).
import type { Migration } from "./migration.ts";

export const V15_ACCOUNT: Migration = {
  sqlite: `
  CREATE TABLE account_sessions (
    id_hash      TEXT PRIMARY KEY,
    mailbox_key  TEXT NOT NULL,
    sealed_label BLOB NOT NULL,
    created_at   INTEGER NOT NULL,
    seen_at      INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX account_sessions_seen ON account_sessions(seen_at);
  ALTER TABLE activity ADD COLUMN mailbox_key TEXT;
  ALTER TABLE activity ADD COLUMN decision TEXT;
  CREATE INDEX activity_mailbox ON activity(mailbox_key, at);
  UPDATE activity SET mailbox_key = (SELECT g.mailbox_key FROM grants g WHERE g.id = activity.grant_id);
  CREATE INDEX grants_mailbox ON grants(mailbox_key);
  `,
  postgres: `
  CREATE TABLE account_sessions (
    id_hash      TEXT PRIMARY KEY,
    mailbox_key  TEXT NOT NULL,
    sealed_label BYTEA NOT NULL,
    created_at   BIGINT NOT NULL,
    seen_at      BIGINT NOT NULL
  );
  CREATE INDEX account_sessions_seen ON account_sessions(seen_at);
  ALTER TABLE activity ADD COLUMN mailbox_key TEXT;
  ALTER TABLE activity ADD COLUMN decision TEXT;
  CREATE INDEX activity_mailbox ON activity(mailbox_key, at);
  UPDATE activity SET mailbox_key = (SELECT g.mailbox_key FROM grants g WHERE g.id = activity.grant_id);
  CREATE INDEX grants_mailbox ON grants(mailbox_key);
  `,
};
