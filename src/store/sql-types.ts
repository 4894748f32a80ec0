// The shape of a query runner, shared by ./db.ts (Bun.SQL) and ./sqlite.ts (bun:sqlite): a leaf, so
// that neither imports the other for it.

/** Rows plus the statement's affected-row count (Bun.SQL's `count`). */
export type Rows<T> = T[] & { count: number };

/**
 * A query runner: the store itself (`Db.q`) or, inside `Db.tx`, the transaction. tx`…` runs one
 * statement (`T` is the row array), tx(values) is a list for `IN ${…}`, tx.unsafe(sql) runs raw SQL
 * (migrations). Bun.SQL's transaction object is one; ./sqlite.ts builds the SQLite one.
 */
export interface Sql {
  <T = Record<string, unknown>[]>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T & { count: number }>;
  (values: readonly (string | number)[]): unknown;
  unsafe(sql: string): Promise<unknown>;
}
