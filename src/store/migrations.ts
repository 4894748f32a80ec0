// Schema history, for both dialects: entry i upgrades schema version i → i+1 (SQLite keeps it in
// PRAGMA user_version, Postgres in schema_version; see schema.ts). Never edit a shipped entry; append
// one with both dialects. Secrets (request ids, CSRF tokens, codes, access tokens) appear only as
// SHA-256 hashes; credentials only sealed (see crypto.ts and docs/oauth.md).
//
// Postgres differs in types only (BIGINT milliseconds, BYTEA), plus `grants.rowid`: an identity
// column named after SQLite's implicit rowid, so one query orders grants by insertion on both.

import type { Migration } from "./migrations/migration.ts";
import { V1_TO_V4 } from "./migrations/v1-v4.ts";
import { V5_TO_V8 } from "./migrations/v5-v8.ts";
import { V9 } from "./migrations/v9.ts";
import { V10 } from "./migrations/v10.ts";
import { V11_SENDING } from "./migrations/v11-sending.ts";
import { V12_LIMIT_ORDER } from "./migrations/v12-limit-order.ts";
import { V13_SENT_MARKS } from "./migrations/v13-sent-marks.ts";
import { V14_IDENTITIES } from "./migrations/v14-identities.ts";
import { V15_ACCOUNT } from "./migrations/v15-account.ts";
import { V16_GRANT_MAILBOXES } from "./migrations/v16-grant-mailboxes.ts";
import { V17_ACCOUNT_FLOWS } from "./migrations/v17-account-flows.ts";
import { V18_HELD_SUBJECTS } from "./migrations/v18-held-subjects.ts";

export type { Migration } from "./migrations/migration.ts";

// V11_SENDING is numbered 11 by the team (issues 19 to 24 each own one); in order of merge here.
export const migrations: Migration[] = [...V1_TO_V4, ...V5_TO_V8, ...V9, V10, V11_SENDING, V12_LIMIT_ORDER, V13_SENT_MARKS, V14_IDENTITIES, V15_ACCOUNT, V16_GRANT_MAILBOXES, V17_ACCOUNT_FLOWS, V18_HELD_SUBJECTS];
