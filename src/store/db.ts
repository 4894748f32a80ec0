// The store's connection (docs/design.md §4): one SQLite file in the data dir (the default) or
// Postgres (MAILBOX_MCP_DATABASE_URL), with one tagged-template API. Every file in store/ writes its
// SQL once, for both, through `q` (one statement) and `tx` (a transaction); the few places where the
// dialects differ ask `dialect`. Postgres goes through Bun.SQL; SQLite through bun:sqlite with each
// statement prepared once (./sqlite.ts).
import { SQL } from "bun";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { ListValue, SqliteConnection } from "./sqlite.ts";
import type { Rows, Sql } from "./sql-types.ts";

export type Dialect = "sqlite" | "postgres";

export type { Rows, Sql } from "./sql-types.ts";

export interface TxOptions {
  /**
   * false: the commit returns without waiting for the disk (SQLite `synchronous = NORMAL` for this
   * transaction, Postgres `synchronous_commit = off`): the database stays consistent, but a power cut
   * or OS crash (SQLite; not a crash of this process), or a crash of the database server (Postgres),
   * may undo it. Only for writes whose loss is safe, argued where they are made; default true.
   */
  durable?: boolean;
}

/** How often a transaction Postgres aborted as a deadlock victim is tried in all. */
const DEADLOCK_ATTEMPTS = 3;

type Backend = { dialect: "postgres"; sql: SQL } | { dialect: "sqlite"; lite: SqliteConnection };

export class Db {
  /** SQLite only: the tail of the queue transactions (and statements issued while one is open) wait in. */
  private turn: Promise<unknown> = Promise.resolve();
  /** SQLite only: transactions and statements queued or running in `turn`. */
  private queued = 0;
  readonly dialect: Dialect;

  constructor(private readonly backend: Backend) {
    this.dialect = backend.dialect;
  }

  /**
   * One statement. On SQLite there is one connection: a statement issued while a transaction is
   * open would run *inside* it (and be rolled back with it), so it waits for the transaction to
   * end; with none open or queued it runs at once. Postgres hands each its own pooled connection.
   */
  q<T = Record<string, unknown>>(strings: TemplateStringsArray, ...values: unknown[]): Promise<Rows<T>> {
    const b = this.backend;
    if (b.dialect === "postgres") return b.sql(strings, ...values) as unknown as Promise<Rows<T>>;
    const run = () => b.lite.run<T>(strings, values);
    if (this.queued > 0) return this.serial(async () => run());
    try {
      return Promise.resolve(run());
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * A transaction: `fn` must use only the `tx` it is given (on SQLite, `q` would wait for this very
   * transaction to end). SQLite's BEGIN IMMEDIATE takes the file's write lock at once, so another
   * process on the same file (a CLI verb) waits on busy_timeout instead of failing on upgrade.
   */
  tx<T>(fn: (tx: Sql) => Promise<T>, options: TxOptions = {}): Promise<T> {
    const b = this.backend;
    const durable = options.durable ?? true;
    if (b.dialect === "postgres") return this.pgTx(b.sql, durable ? fn : withoutFlush(fn));
    return this.serial(() => b.lite.begin("IMMEDIATE", fn, durable));
  }

  /**
   * Postgres picks one of two deadlocked transactions and aborts it (SQLSTATE 40P01); its work was
   * rolled back whole, so it is simply run again. Our transactions touch only the database.
   */
  private async pgTx<T>(sql: SQL, fn: (tx: Sql) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await sql.begin(fn as never)) as T;
      } catch (err) {
        if ((err as { errno?: string }).errno !== "40P01" || attempt >= DEADLOCK_ATTEMPTS) throw err;
      }
    }
  }

  /**
   * Postgres only: runs `onnotify` for every NOTIFY on `channel`, and `onlisten` once the LISTEN is
   * acknowledged — at first and again after Bun.SQL re-subscribes a dropped connection (so a caller
   * can catch up on what it missed meanwhile). One dedicated connection serves every channel.
   */
  listen(channel: string, onnotify: () => void, onlisten: () => void): Promise<{ unlisten(): Promise<void> }> {
    if (this.backend.dialect !== "postgres") throw new Error("LISTEN is a Postgres feature");
    return this.backend.sql.listen(channel, () => onnotify(), onlisten);
  }

  /** A value for an `IN ${…}` list, e.g. `WHERE id IN ${db.list(ids)}` (never empty). */
  list(values: readonly (string | number)[]): unknown {
    return this.backend.dialect === "postgres" ? this.backend.sql(values as (string | number)[]) : new ListValue(values);
  }

  async close(): Promise<void> {
    if (this.backend.dialect === "postgres") return void (await this.backend.sql.close());
    await this.turn.catch(() => {});
    this.backend.lite.close();
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    this.queued++;
    const run = this.turn.then(fn, fn).finally(() => { this.queued--; });
    this.turn = run.catch(() => {});
    return run;
  }
}

/** Postgres: SET LOCAL lasts until this transaction ends; the commit then does not wait for the WAL flush. */
const withoutFlush = <T>(fn: (tx: Sql) => Promise<T>) => async (tx: Sql): Promise<T> => {
  await tx`SET LOCAL synchronous_commit = off`;
  return fn(tx);
};

export interface SqliteOptions {
  /**
   * SQLite's `synchronous` for this connection. The default (FULL) syncs the WAL on every commit
   * (~1.7 ms here). NORMAL syncs at checkpoints only: still never corrupt in WAL mode, but a power
   * loss may undo the last commits. Fit for bookkeeping written on most requests, which gets a
   * connection of their own (store.ts): the MCP session rows' last activity (mcp-sessions.ts), a
   * grant's last use (grants.ts touchGrant) and the owner's activity rows (activity.ts: committed
   * before the call answers, as always; a power cut may lose the last ones); never for issuing or
   * revoking grants, codes and tokens.
   * Each sync also blocks the event loop (bun:sqlite is synchronous): at 1,000 active mailboxes the
   * last-use updates alone, ~17 a second with FULL, stalled every request by up to 175 ms.
   */
  synchronous?: "FULL" | "NORMAL";
}

/**
 * A SQLite file (0600, WAL), or ":memory:" for tests. Returns at once: its settings are queued
 * first, and every later statement takes its turn after them (Db.q).
 */
export function sqliteDb(path: string, options: SqliteOptions = {}): Db {
  // Created 0600 before SQLite opens it, so the file is never readable by others, not even briefly.
  if (path !== ":memory:" && !existsSync(path)) writeFileSync(path, "", { mode: 0o600, flag: "a" });
  const lite = SqliteConnection.open(path);
  if (path !== ":memory:") chmodSync(path, 0o600);
  lite.exec("PRAGMA busy_timeout = 5000");
  lite.exec("PRAGMA journal_mode = WAL");
  if (options.synchronous === "NORMAL") lite.setSynchronous("NORMAL");
  lite.exec("PRAGMA foreign_keys = ON");
  // Overwrite deleted content so a revoked credential's bytes do not linger in free pages.
  lite.exec("PRAGMA secure_delete = ON");
  return new Db({ dialect: "sqlite", lite });
}

export async function openSqlite(path: string, options: SqliteOptions = {}): Promise<Db> {
  const db = sqliteDb(path, options);
  await db.q`SELECT 1`;
  return db;
}

/** Pool size per instance: the store calls are short; a handful of connections covers the requests in flight. */
const PG_POOL = 10;

/** Where a database URL points, for messages: host, port and database, never the user or password. */
export function databaseLabel(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}`;
}

/** A Postgres database from a postgres:// URL; the first statement proves it is reachable. */
export async function openPostgres(url: string): Promise<Db> {
  const db = new Db({ dialect: "postgres", sql: new SQL({ url, max: PG_POOL, idleTimeout: 60, connectionTimeout: 10 }) });
  try {
    await db.q`SELECT 1`;
  } catch (err) {
    await db.close().catch(() => {});
    const e = err as { message: string; code?: string };
    throw new Error(`the database at ${databaseLabel(url)} could not be opened: ${e.message}${e.code ? ` (${e.code})` : ""}`);
  }
  return db;
}
