// Opens the store (docs/design.md §4; docs/deploy.md): the SQLite file in the data dir, or the Postgres
// database several instances share. Migrates it (one instance at a time), checks the master key
// against the store's key check value, and hands out one object per concept.
import type { Clock } from "../clock.ts";
import { openPostgres, openSqlite, sqliteDb, type Db } from "./db.ts";
import { AccountSessions } from "./account-sessions.ts";
import { ActivityLog } from "./activity.ts";
import { ClientStore } from "./clients.ts";
import { GrantAdmin } from "./grant-admin.ts";
import { GrantRenewals } from "./grant-renewal.ts";
import { GrantStore } from "./grants.ts";
import { GrantMailboxes } from "./grant-mailboxes.ts";
import { PendingMailboxes } from "./pending-mailboxes.ts";
import { checkMasterKey, replaceMasterKeyCheck } from "./key-check.ts";
import { LimitStore } from "./limits.ts";
import { MailboxIdentities } from "./mailbox-identities.ts";
import { HeldSubjects } from "./held-subjects.ts";
import { OwnerView } from "./owner-view.ts";
import { SessionRows } from "./mcp-sessions.ts";
import { PendingStore } from "./pending.ts";
import { Revocations } from "./revocations.ts";
import { SendClaims } from "./send-claims.ts";
import { SendConfirmations } from "./send-confirmations.ts";
import { SendLedger } from "./send-ledger.ts";
import { SendRecipients } from "./send-recipients.ts";
import { SentMarks } from "./sent-marks.ts";
import { SessionAnswers } from "./session-answers.ts";
import { UpstreamFlows } from "./upstream-flows.ts";
import { migrate, SCHEMA_VERSION, schemaVersion } from "./schema.ts";

export interface Store {
  db: Db;
  grants: GrantStore;
  /** The mailboxes of each connection (grant-mailboxes.ts). */
  mailboxes: GrantMailboxes;
  pending: PendingStore;
  /** The mailboxes a setup page verified so far, sealed with its request (pending-mailboxes.ts). */
  pendingMailboxes: PendingMailboxes;
  limits: LimitStore;
  /** RFC 7591 registrations (docs/oauth.md §9). */
  clients: ClientStore;
  /** The owner's view: list and revoke grants (docs/owner.md). */
  admin: GrantAdmin;
  /** The cross-process revocation signal (revocations.ts). */
  revocations: Revocations;
  activity: ActivityLog;
  /** The owner's page: one mailbox's connections, activity and actions (owner-view.ts). */
  ownerView: OwnerView;
  /** Signed-in browsers on the owner's page (account-sessions.ts). */
  accountSessions: AccountSessions;
  /** 2025-era MCP session rows (mcp-sessions.ts). */
  sessions: SessionRows;
  /** Answers relayed between instances on 2025-era sessions (session-answers.ts). */
  sessionAnswers: SessionAnswers;
  /** At-most-once delivery: the first outcome of each message for 10 minutes (send-ledger.ts). */
  sendLedger: SendLedger;
  /** Whom each grant has delivered mail to, as keyed hashes (send-recipients.ts). */
  sendRecipients: SendRecipients;
  /** Where each grant's \Sent folder stood when it was made (sent-marks.ts). */
  sentMarks: SentMarks;
  /** Single-use nonces of confirmation requests (send-confirmations.ts). */
  sendConfirmations: SendConfirmations;
  /** A send's claim, cap events and outcome in as few commits as possible (send-claims.ts). */
  sendClaims: SendClaims;
  /** Sign-ins under way at OAuth mail providers (upstream-flows.ts). */
  upstreamFlows: UpstreamFlows;
  /** Each mailbox's send-as identities and signature, set by the person only (mailbox-identities.ts). */
  identities: MailboxIdentities;
  /** The subjects of messages the send gate held as drafts, sealed, for the owner's page (held-subjects.ts). */
  heldSubjects: HeldSubjects;
  /** Refreshed OAuth credentials sealed back into their grant, one renewal per grant at a time (grant-renewal.ts). */
  renewals: GrantRenewals;
  /** Deletes expired pending requests, codes, tokens, orphaned grants, idle registrations (rate-limit events: each Limiter's sweep). */
  purgeExpired(): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_CLIENT_IDLE_MS = 30 * 86_400_000;

export class SchemaMismatchError extends Error {
  constructor(found: number) {
    super(`the store's schema version is ${found}, this build's is ${SCHEMA_VERSION}: run the server of this version once (it migrates), or use the matching mailbox-mcp`);
    this.name = "SchemaMismatchError";
  }
}

/** The owner's verbs work only on a store at exactly this build's schema. */
async function expectCurrentSchema(db: Db): Promise<void> {
  const found = await schemaVersion(db);
  if (found !== SCHEMA_VERSION) throw new SchemaMismatchError(found);
}

export class KeyMismatchError extends Error {
  constructor() {
    super("MAILBOX_MCP_SECRET_KEY is not the key this store was created with; every instance on one database must use the same key");
    this.name = "KeyMismatchError";
  }
}

export interface StoreTarget {
  /** postgres://… (MAILBOX_MCP_DATABASE_URL), or null for the SQLite file. */
  databaseUrl: string | null;
  /** The SQLite file (or ":memory:"), used when databaseUrl is null. */
  sqlitePath: string;
  masterKey: Uint8Array;
  clock: Clock;
  /** A client registration without a grant for this long is gone (src/oauth/protocol/registration.ts); default 30 days. */
  clientIdleMs?: number;
  /**
   * "serve" (default) migrates the schema and, on SQLite only, adopts a new master key (a lost key
   * file). "tool" (the owner's CLI verbs) changes neither: a newer CLI must not migrate a store
   * its servers do not know yet, and a mistyped key must not replace the store's key check.
   */
  role?: "serve" | "tool";
  warn?: (message: string) => void;
}

export interface StoreOptions {
  /**
   * The bookkeeping connection: MCP session rows, grants' last use and the activity log, written on
   * most requests and each worth less than a disk sync that stalls every other request; on SQLite a
   * second one without a sync per commit (db.ts); default `db`.
   */
  sessionDb?: Db;
  /** A client registration without a grant for this long is gone; default 30 days. */
  clientIdleMs?: number;
}

/** The stores over an open, migrated Db whose key was already checked. */
export function storesOver(db: Db, masterKey: Uint8Array, clock: Clock, options: StoreOptions = {}): Store {
  const sessionDb = options.sessionDb ?? db;
  const clientIdleMs = options.clientIdleMs ?? DEFAULT_CLIENT_IDLE_MS;
  const grants = new GrantStore(db, masterKey, clock, sessionDb);
  const pending = new PendingStore(db, clock);
  const clients = new ClientStore(db, clock, clientIdleMs);
  const sendLedger = new SendLedger(db, masterKey, clock);
  const sendRecipients = new SendRecipients(db, masterKey, clock);
  const limits = new LimitStore(db, masterKey, clock);
  const sendConfirmations = new SendConfirmations(db, clock);
  const sessionAnswers = new SessionAnswers(db, clock);
  const upstreamFlows = new UpstreamFlows(db, masterKey, clock);
  // Bookkeeping too: a disk sync per write call stalled every other request (docs/decisions.md "Store").
  const activity = new ActivityLog(sessionDb, masterKey, clock);
  const accountSessions = new AccountSessions(db, masterKey, clock);
  const heldSubjects = new HeldSubjects(db, masterKey, clock);
  return {
    db,
    grants,
    mailboxes: new GrantMailboxes(db, masterKey, clock),
    pending,
    pendingMailboxes: new PendingMailboxes(db, masterKey),
    limits,
    clients,
    admin: new GrantAdmin(db, masterKey, clock),
    revocations: new Revocations(db),
    activity,
    ownerView: new OwnerView(db, activity, clock),
    accountSessions,
    sessions: new SessionRows(sessionDb),
    sessionAnswers,
    sendLedger,
    sendRecipients,
    sentMarks: new SentMarks(db, clock),
    sendConfirmations,
    sendClaims: new SendClaims(db, sendLedger, limits, sendRecipients),
    upstreamFlows,
    renewals: new GrantRenewals(db, masterKey, clock),
    identities: new MailboxIdentities(db, masterKey, clock),
    heldSubjects,
    async purgeExpired() {
      await upstreamFlows.purgeExpired();
      await pending.purgeExpired();
      await grants.purgeExpired();
      await clients.purgeExpired();
      await sendLedger.purge();
      await sendConfirmations.purge();
      await sessionAnswers.purge();
      await accountSessions.purgeExpired();
      await heldSubjects.purge();
    },
    async close() {
      if (sessionDb !== db) await sessionDb.close();
      await db.close();
    },
  };
}

export async function openStore(t: StoreTarget): Promise<Store> {
  const db = t.databaseUrl ? await openPostgres(t.databaseUrl) : await openSqlite(t.sqlitePath);
  try {
    if (t.role === "tool") await expectCurrentSchema(db);
    else await migrate(db);
    const check = await checkMasterKey(db, t.masterKey);
    if (check === "mismatch") {
      // Shared store: another key means this instance would seal what the others cannot open. Refuse.
      if (db.dialect === "postgres" || t.role === "tool") throw new KeyMismatchError();
      // The single executable after a lost key file: its old grants cannot be opened by anyone now,
      // and clients simply sign in again (README); the new key becomes the store's.
      t.warn?.("the master key is not the one this store was created with: existing grants cannot be opened; clients must sign in again");
      await replaceMasterKeyCheck(db, t.masterKey);
    }
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  // Opened after the migration, so it never races it; a file path only (":memory:" would be another database).
  const sessionDb = db.dialect === "sqlite" && t.sqlitePath !== ":memory:"
    ? await openSqlite(t.sqlitePath, { synchronous: "NORMAL" })
    : db;
  return storesOver(db, t.masterKey, t.clock, { sessionDb, clientIdleMs: t.clientIdleMs });
}

/**
 * An in-memory SQLite store for tests, usable at once: its migration is the first statement queued,
 * and SQLite statements run in turn (Db.q), so everything asked of it later runs on the full schema.
 */
export function memoryStore(masterKey: Uint8Array, clock: Clock): Store {
  const db = sqliteDb(":memory:");
  migrate(db).catch((err: unknown) => {
    throw err; // surfaces as an unhandled rejection: the test run fails loudly
  });
  return storesOver(db, masterKey, clock);
}
