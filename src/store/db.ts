// One SQLite file in the data dir (DESIGN §4): WAL, STRICT tables, migrations by PRAGMA user_version.
import { Database } from "bun:sqlite";
import { chmodSync } from "node:fs";
import { migrations } from "./migrations.ts";

export interface OpenOptions {
  /**
   * SQLite's `synchronous` for this connection. The default (FULL) syncs the WAL on every commit
   * (~1.7 ms here, ~0.25 ms of CPU). NORMAL syncs at checkpoints only: still never corrupt in WAL
   * mode, but a power loss may undo the last commits. Fit for the MCP session rows (src/store/
   * mcp-sessions.ts: last activity written on every call), which get a connection of their own;
   * never for grants, codes and tokens.
   */
  synchronous?: "FULL" | "NORMAL";
}

export function openDatabase(path: string, options: OpenOptions = {}): Database {
  const db = new Database(path, { create: true, strict: true });
  if (path !== ":memory:") chmodSync(path, 0o600);
  db.exec("PRAGMA journal_mode = WAL");
  if (options.synchronous) db.exec(`PRAGMA synchronous = ${options.synchronous}`);
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  // Overwrite deleted content so a revoked credential's bytes do not linger in free pages.
  db.exec("PRAGMA secure_delete = ON");
  migrate(db);
  return db;
}

export function migrate(db: Database): void {
  const row = db.query<{ user_version: number }, []>("PRAGMA user_version").get();
  const current = row?.user_version ?? 0;
  if (current > migrations.length) {
    throw new Error(`database schema version ${current} is newer than this build knows (${migrations.length}); upgrade mailbox-mcp`);
  }
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v]!);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    })();
  }
}
