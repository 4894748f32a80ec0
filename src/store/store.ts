// Opens the store (DESIGN §4; docs/deploy.md): the SQLite file in the data dir, or the Postgres
// database several instances share. Migrates it (one instance at a time), checks the master key
// against the store's key check value, and hands out one object per concept.
import type { Clock } from "../clock.ts";
import { openPostgres, openSqlite, sqliteDb, type Db } from "./db.ts";
import { GrantStore } from "./grants.ts";
import { checkMasterKey, replaceMasterKeyCheck } from "./key-check.ts";
import { LimitStore } from "./limits.ts";
import { PendingStore } from "./pending.ts";
import { migrate } from "./schema.ts";

export interface Store {
  db: Db;
  grants: GrantStore;
  pending: PendingStore;
  limits: LimitStore;
  /** Deletes expired pending requests, codes, tokens and orphaned grants (rate-limit events: each Limiter's sweep). */
  purgeExpired(): Promise<void>;
  close(): Promise<void>;
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
  warn?: (message: string) => void;
}

/** The stores over an open, migrated Db whose key was already checked. */
export function storesOver(db: Db, masterKey: Uint8Array, clock: Clock): Store {
  const grants = new GrantStore(db, masterKey, clock);
  const pending = new PendingStore(db, clock);
  return {
    db,
    grants,
    pending,
    limits: new LimitStore(db, masterKey, clock),
    async purgeExpired() {
      await pending.purgeExpired();
      await grants.purgeExpired();
    },
    close: () => db.close(),
  };
}

export async function openStore(t: StoreTarget): Promise<Store> {
  const db = t.databaseUrl ? await openPostgres(t.databaseUrl) : await openSqlite(t.sqlitePath);
  try {
    await migrate(db);
    const check = await checkMasterKey(db, t.masterKey);
    if (check === "mismatch") {
      // Shared store: another key means this instance would seal what the others cannot open. Refuse.
      if (db.dialect === "postgres") throw new KeyMismatchError();
      // The single executable after a lost key file: its old grants cannot be opened by anyone now,
      // and clients simply sign in again (README); the new key becomes the store's.
      t.warn?.("the master key is not the one this store was created with: existing grants cannot be opened; clients must sign in again");
      await replaceMasterKeyCheck(db, t.masterKey);
    }
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  return storesOver(db, t.masterKey, t.clock);
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
