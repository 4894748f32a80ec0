// The events behind every sliding-window rate limit (docs/oauth.md §5), in the store so a limit holds
// across every instance sharing it. A reservation checks and counts in one transaction: on Postgres
// under a transaction-scoped advisory lock per key (taken in sorted order, so two reservations never
// wait on each other crosswise), on SQLite under the file's write lock. Keys are stored only as
// keyed HMACs: the table never holds a client address or a mailbox address in clear.
import { createHmac } from "node:crypto";
import type { Clock } from "../clock.ts";
import { randomHex } from "./crypto.ts";
import type { Db, Sql } from "./db.ts";
import { int } from "./values.ts";

export interface Window {
  max: number;
  windowMs: number;
}

/** A reservation: its id (to release it), or how long to wait (ms) before the keys admit another. */
export type Reservation = { slot: string } | { waitMs: number };

export class LimitStore {
  constructor(
    private readonly db: Db,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  private keyOf(bucket: string, key: string): string {
    return createHmac("sha256", this.masterKey).update(`mailbox-mcp limit v1\0${bucket}\0${key}`, "utf8").digest("hex");
  }

  /**
   * Takes one event under every key of `bucket` at once, or none when any key already holds `max`
   * events inside the window: then the wait until the oldest counted one leaves it.
   */
  async reserve(bucket: string, keys: string[], w: Window): Promise<Reservation> {
    return this.db.tx((tx) => this.reserveIn(tx, bucket, keys, w));
  }

  /** reserve() inside the caller's transaction (src/store/send-claims.ts counts a send with its claim). */
  async reserveIn(tx: Sql, bucket: string, keys: string[], w: Window): Promise<Reservation> {
    const hashed = [...new Set(keys.map((k) => this.keyOf(bucket, k)))].sort();
    if (this.db.dialect === "postgres") {
      for (const k of hashed) await tx`SELECT pg_advisory_xact_lock(hashtextextended(${k}, 0))`;
    }
    const now = this.clock();
    const waitMs = await this.waitFor(tx, bucket, hashed, w, now);
    if (waitMs > 0) return { waitMs };
    const slot = randomHex(16);
    for (const k of hashed) await tx`INSERT INTO limit_events (bucket, key, at, slot) VALUES (${bucket}, ${k}, ${now}, ${slot})`;
    return { slot };
  }

  /** How long (ms) until `reserve` would admit an event under every key; 0 when it would now. Takes nothing. */
  async wait(bucket: string, keys: string[], w: Window): Promise<number> {
    const hashed = [...new Set(keys.map((k) => this.keyOf(bucket, k)))];
    return this.db.tx((tx) => this.waitFor(tx, bucket, hashed, w, this.clock()));
  }

  /**
   * The longest wait any key imposes: its max-th newest event's time plus the window, minus now. One
   * indexed lookup per key (limit_events_key: bucket, key, at) skips to that event; reading every event
   * in the window cost as many rows as the window held (thousands under a generous send cap), per check.
   */
  private async waitFor(tx: Sql, bucket: string, keys: string[], w: Window, now: number): Promise<number> {
    let waitMs = 0;
    for (const key of keys) {
      const [row] = await tx<{ at: unknown }[]>`
        SELECT at FROM limit_events WHERE bucket = ${bucket} AND key = ${key} AND at > ${now - w.windowMs}
         ORDER BY at DESC LIMIT 1 OFFSET ${w.max - 1}`;
      if (row) waitMs = Math.max(waitMs, int(row.at) + w.windowMs - now);
    }
    return waitMs;
  }

  /** Gives a reservation back: as if it had never been taken. Idempotent. */
  async release(slot: string): Promise<void> {
    await this.db.q`DELETE FROM limit_events WHERE slot = ${slot}`;
  }

  /** release() inside the caller's transaction. */
  async releaseIn(tx: Sql, slot: string): Promise<void> {
    await tx`DELETE FROM limit_events WHERE slot = ${slot}`;
  }

  /** Deletes the bucket's events that left its window. */
  async sweep(bucket: string, windowMs: number): Promise<void> {
    await this.db.q`DELETE FROM limit_events WHERE bucket = ${bucket} AND at <= ${this.clock() - windowMs}`;
  }

  /** Events the bucket holds (all keys, in or out of the window): for tests and the sweep's checks. */
  async size(bucket: string): Promise<number> {
    const [row] = await this.db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM limit_events WHERE bucket = ${bucket}`;
    return int(row!.n);
  }
}
