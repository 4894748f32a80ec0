// Schema version and migrations (docs/design.md §4): checked at every start, migrated by one instance at a
// time. The whole upgrade is one transaction under a lock — on Postgres a transaction-scoped advisory
// lock, on SQLite the file's write lock (BEGIN IMMEDIATE) — and the version is read again under it,
// so instances starting together migrate once and the others find the work done.
import type { Db, Sql } from "./db.ts";
import { migrations } from "./migrations.ts";

/** The advisory lock id every instance takes to migrate ("mail" in ASCII). */
const MIGRATION_LOCK = 0x6d61696c;

export class SchemaVersionError extends Error {
  constructor(found: number, known: number) {
    super(`the store's schema version ${found} is newer than this build knows (${known}): upgrade mailbox-mcp on every instance`);
    this.name = "SchemaVersionError";
  }
}

export const SCHEMA_VERSION = migrations.length;

async function readVersion(db: Db, tx: Sql): Promise<number> {
  if (db.dialect === "sqlite") {
    const [row] = await tx<{ user_version: number }[]>`PRAGMA user_version`;
    return row?.user_version ?? 0;
  }
  await tx`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`;
  const [row] = await tx<{ version: number }[]>`SELECT version FROM schema_version`;
  return row?.version ?? 0;
}

async function writeVersion(db: Db, tx: Sql, version: number): Promise<void> {
  if (db.dialect === "sqlite") {
    await tx.unsafe(`PRAGMA user_version = ${Number(version)}`);
    return;
  }
  await tx`DELETE FROM schema_version`;
  await tx`INSERT INTO schema_version (version) VALUES (${version})`;
}

/**
 * Brings the store to `target` (default: this build's version); returns the version it found.
 * A store newer than this build is refused: an older instance must not write to a schema it does not know.
 */
export async function migrate(db: Db, target = SCHEMA_VERSION): Promise<number> {
  return db.tx(async (tx) => {
    if (db.dialect === "postgres") await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    const found = await readVersion(db, tx);
    if (found > SCHEMA_VERSION) throw new SchemaVersionError(found, SCHEMA_VERSION);
    for (let v = found; v < target; v++) await tx.unsafe(migrations[v]![db.dialect]);
    if (target > found) await writeVersion(db, tx, target);
    return found;
  });
}

/** The store's schema version as it stands. */
export async function schemaVersion(db: Db): Promise<number> {
  return db.tx((tx) => readVersion(db, tx));
}
