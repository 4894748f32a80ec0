// SQLite through bun:sqlite with each statement prepared once (docs/decisions.md "Store"). Bun.SQL's
// SQLite adapter is bun:sqlite underneath, but it prepares the statement again on every query and
// wraps each in a query object: ~12-17 µs per indexed lookup where a prepared statement costs 2-6 µs,
// on the two or three lookups every /mcp request makes. The SQL is written once per call site as a
// tagged template, so the template's strings object (the same object every time a call site runs,
// ECMAScript "GetTemplateObject") keys the prepared statement. Statements run synchronously, as
// they did inside Bun.SQL; the ordering around transactions is Db's (./db.ts).
import { Database, type SQLQueryBindings, type Statement } from "bun:sqlite";
import type { Rows, Sql } from "./sql-types.ts";

/** A value written `IN ${db.list(values)}`: expands to `(?, ?, …)` with one parameter per value. */
export class ListValue {
  constructor(readonly values: readonly unknown[]) {}
}

interface Prepared {
  statement: Statement;
  /** SELECT, RETURNING, most PRAGMAs: read with all(); anything else with run() for its change count. */
  returnsRows: boolean;
}

const isTemplate = (v: unknown): v is TemplateStringsArray => Array.isArray(v) && "raw" in v;

/** A bound value as SQLite takes it: undefined is NULL, a boolean 1 or 0 (SQLite has no boolean). */
function param(v: unknown): SQLQueryBindings {
  if (v === undefined) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  return v as SQLQueryBindings;
}

export class SqliteConnection {
  /** Prepared statements of templates without a list value (their SQL depends on the strings alone). */
  private readonly prepared = new WeakMap<TemplateStringsArray, Prepared>();

  /** This connection's `synchronous` (SQLite's default is FULL): a non-durable transaction lowers it for its commit. */
  private synchronous: "FULL" | "NORMAL" = "FULL";

  constructor(readonly db: Database) {}

  static open(path: string): SqliteConnection {
    return new SqliteConnection(path === ":memory:" ? new Database(":memory:") : new Database(path, { create: true, readwrite: true }));
  }

  /** One statement, now. */
  run<T>(strings: TemplateStringsArray, values: readonly unknown[]): Rows<T> {
    const hasList = values.some((v) => v instanceof ListValue);
    if (hasList) {
      const { sql, params } = expand(strings, values);
      const statement = this.db.prepare(sql);
      try {
        return execute<T>({ statement, returnsRows: statement.columnNames.length > 0 }, params);
      } finally {
        statement.finalize();
      }
    }
    let p = this.prepared.get(strings);
    if (!p) {
      const statement = this.db.prepare(strings.join("?"));
      p = { statement, returnsRows: statement.columnNames.length > 0 };
      this.prepared.set(strings, p);
    }
    return execute<T>(p, values.map(param));
  }

  setSynchronous(mode: "FULL" | "NORMAL"): void {
    this.db.run(`PRAGMA synchronous = ${mode}`);
    this.synchronous = mode;
  }

  /** Raw SQL (migrations, PRAGMAs with a computed value), several statements allowed. */
  exec(sql: string): void {
    this.db.run(sql);
  }

  /**
   * A transaction: BEGIN (IMMEDIATE takes the file's write lock at once), fn, COMMIT; ROLLBACK when
   * fn throws. The caller (Db) makes sure nothing else runs on this connection meanwhile, so a
   * non-durable one (`durable` false: Db.tx) can lower `synchronous` to NORMAL for its commit alone
   * (in WAL mode NORMAL skips the commit's sync of the WAL; a later FULL commit syncs it with its own)
   * and set it back before anything else runs here.
   */
  async begin<T>(mode: "IMMEDIATE" | "DEFERRED", fn: (tx: Sql) => Promise<T>, durable = true): Promise<T> {
    const lowered = !durable && this.synchronous === "FULL";
    if (lowered) this.db.run("PRAGMA synchronous = NORMAL");
    try {
      this.db.run(`BEGIN ${mode}`);
      try {
        const out = await fn(this.asSql());
        this.db.run("COMMIT");
        return out;
      } catch (err) {
        if (this.db.inTransaction) this.db.run("ROLLBACK");
        throw err;
      }
    } finally {
      if (lowered) this.db.run("PRAGMA synchronous = FULL");
    }
  }

  /** The `tx` a transaction body gets: tx`…` runs a statement, tx(values) is a list, tx.unsafe(sql) raw SQL. */
  asSql(): Sql {
    const tx = (first: unknown, ...values: unknown[]) => {
      if (!isTemplate(first)) return new ListValue(first as unknown[]);
      try {
        return Promise.resolve(this.run(first, values));
      } catch (err) {
        return Promise.reject(err);
      }
    };
    const unsafe = async (sql: string) => this.exec(sql);
    return Object.assign(tx, { unsafe }) as unknown as Sql;
  }

  close(): void {
    this.db.close(false);
  }
}

function execute<T>(p: Prepared, params: SQLQueryBindings[]): Rows<T> {
  if (p.returnsRows) {
    const rows = p.statement.all(...params) as T[] & { count: number };
    rows.count = rows.length;
    return rows;
  }
  const { changes } = p.statement.run(...params);
  return Object.assign([] as T[], { count: changes });
}

/** The SQL of a template with list values expanded, and its flat parameters. */
function expand(strings: TemplateStringsArray, values: readonly unknown[]): { sql: string; params: SQLQueryBindings[] } {
  let sql = strings[0]!;
  const params: SQLQueryBindings[] = [];
  values.forEach((v, i) => {
    if (v instanceof ListValue) {
      sql += `(${v.values.map(() => "?").join(", ")})`;
      params.push(...v.values.map(param));
    } else {
      sql += "?";
      params.push(param(v));
    }
    sql += strings[i + 1]!;
  });
  return { sql, params };
}
