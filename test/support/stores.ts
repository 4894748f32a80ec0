// The store's two backends for parametrized tests: in-memory SQLite, and a fresh schema on one
// private Postgres per `bun test` run (test/support/postgres.ts), started by the first test that asks
// and stopped by the preload's afterAll, like Dovecot. Each `open()` is a new, empty, migrated store.
// A schema (the URL's ?search_path=) costs ~1 ms where a CREATE DATABASE costs ~200 ms.
import { afterEach } from "bun:test";
import { SQL } from "bun";
import { openPostgres, sqliteDb, type Db, type Dialect } from "../../src/store/db.ts";
import { migrate } from "../../src/store/schema.ts";
import { startPostgres, type PostgresServer } from "./postgres.ts";

interface Shared {
  server: PostgresServer;
  /** The run's database, where each store gets a schema. */
  url: string;
  admin: SQL;
}

let pg: Promise<Shared> | undefined;
let schemas = 0;

async function start(): Promise<Shared> {
  const server = await startPostgres();
  const url = await server.database("stores");
  return { server, url, admin: new SQL(url) };
}

/** The run's private Postgres, started on first use. */
export async function sharedPostgres(): Promise<PostgresServer> {
  return (await (pg ??= start())).server;
}

/** A new, empty store on the run's Postgres: a URL whose search_path is a schema of its own. */
export async function freshDatabaseUrl(prefix = "t"): Promise<string> {
  const shared = await (pg ??= start());
  const name = `${prefix}_${++schemas}`.replace(/[^a-z0-9_]/gi, "");
  await shared.admin.unsafe(`CREATE SCHEMA "${name}"`);
  return `${shared.url}?search_path=${name}`;
}

/**
 * Three instances on one Postgres: a fresh store migrated once, three pools of their own (as three
 * processes have), closed after fn whatever it did.
 */
export async function withInstances(prefix: string, fn: (dbs: Db[]) => Promise<void>): Promise<void> {
  const url = await freshDatabaseUrl(prefix);
  const dbs = await Promise.all([1, 2, 3].map(() => openPostgres(url)));
  try {
    await migrate(dbs[0]!);
    await fn(dbs);
  } finally {
    await Promise.all(dbs.map((db) => db.close()));
  }
}

/** Stops the run's Postgres, if one was started (the preload's afterAll). */
export async function stopSharedPostgres(): Promise<void> {
  const started = pg;
  pg = undefined;
  const shared = await started?.catch(() => undefined);
  if (!shared) return;
  const db = await reused?.catch(() => undefined);
  reused = undefined;
  await db?.close().catch(() => {});
  await shared.admin.close().catch(() => {});
  await shared.server.stop();
}

export interface Backend {
  name: Dialect;
  /** A new, empty store of this kind, not yet migrated (closed after the test). */
  create(): Promise<Db>;
  /**
   * An empty store, migrated to the current schema. On Postgres the run's one migrated store,
   * emptied: a new connection costs 50-400 ms on a loaded machine, a TRUNCATE a few.
   */
  open(): Promise<Db>;
}

const opened: Db[] = [];
const track = (db: Db) => (opened.push(db), db);
let reused: Promise<Db> | undefined;

async function migratedPostgres(): Promise<Db> {
  const db = await openPostgres(await freshDatabaseUrl("reused"));
  await migrate(db);
  return db;
}

async function emptiedPostgres(): Promise<Db> {
  const db = await (reused ??= migratedPostgres());
  const tables = await db.q<{ tablename: string }>`
    SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_version'`;
  await db.tx((tx) => tx.unsafe(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(", ")}`));
  return db;
}

export const BACKENDS: Backend[] = [
  {
    name: "sqlite",
    create: async () => track(sqliteDb(":memory:")),
    open: async () => { const db = track(sqliteDb(":memory:")); await migrate(db); return db; },
  },
  {
    name: "postgres",
    create: async () => track(await openPostgres(await freshDatabaseUrl("store"))),
    open: emptiedPostgres,
  },
];

/** Closes each test's own stores after it (call once per file): a Postgres store holds pooled connections. */
export function closeStoresAfterEach(): void {
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close().catch(() => {})));
  });
}

const COUNTS = {
  grants: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM grants`,
  tokens: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM tokens`,
  codes: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM codes`,
  pending_requests: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM pending_requests`,
  limit_events: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM limit_events`,
  clients: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM clients`,
  revocations: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM revocations`,
  activity: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM activity`,
  mcp_sessions: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM mcp_sessions`,
  send_ledger: (db: Db) => db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM send_ledger`,
};

/** Rows in one of the store's tables, on either backend. */
export async function countRows(db: Db, table: keyof typeof COUNTS): Promise<number> {
  return Number((await COUNTS[table](db))[0]!.n);
}

const DUMPS = {
  account_sessions: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM account_sessions`,
  pending_requests: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM pending_requests`,
  grants: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM grants`,
  grant_mailboxes: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM grant_mailboxes`,
  codes: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM codes`,
  tokens: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM tokens`,
  limit_events: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM limit_events`,
  store_meta: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM store_meta`,
  clients: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM clients`,
  revocations: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM revocations`,
  activity: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM activity`,
  mcp_sessions: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM mcp_sessions`,
  mcp_session_answers: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM mcp_session_answers`,
  send_ledger: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM send_ledger`,
  send_recipients: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM send_recipients`,
  sent_marks: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM sent_marks`,
  mailbox_identities: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM mailbox_identities`,
  held_subjects: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM held_subjects`,
  send_confirmations: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM send_confirmations`,
  upstream_flows: (db: Db) => db.q<Record<string, unknown>>`SELECT * FROM upstream_flows`,
};

/** The store's tables as it reports them (not the schema version's own). */
export async function storeTables(db: Db): Promise<string[]> {
  const rows = db.dialect === "sqlite"
    ? await db.q<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
    : await db.q<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_version'`;
  return rows.map((r) => r.name).sort();
}

/** Every value of every row of every table, as text (binary as latin1), for at-rest checks. */
export async function dumpStore(db: Db): Promise<string> {
  const tables = await storeTables(db);
  const known = Object.keys(DUMPS).sort();
  if (tables.join() !== known.join()) throw new Error(`dumpStore knows ${known.join(", ")}; the store has ${tables.join(", ")}`);
  const parts: string[] = [];
  for (const dump of Object.values(DUMPS)) {
    for (const row of await dump(db)) {
      for (const v of Object.values(row)) parts.push(v instanceof Uint8Array ? Buffer.from(v).toString("latin1") : String(v));
    }
  }
  return parts.join("\n");
}
