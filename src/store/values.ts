// Column values as the store's callers expect them, from either dialect: Postgres returns BIGINT
// (our millisecond times) and COUNT(*) as strings, SQLite as numbers; BYTEA comes as a Buffer, BLOB
// as a Uint8Array.

/** An integer column (milliseconds since the epoch, counts): exact below 2^53. */
export const int = (v: unknown): number => (typeof v === "number" ? v : Number(v));

export const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : int(v));

/** A binary column as a plain Uint8Array view of the same bytes. */
export const bytes = (v: unknown): Uint8Array =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);
