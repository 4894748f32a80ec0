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
    await this.lockKeys(tx, hashed);
    const now = this.clock();
    const waitMs = await this.waitFor(tx, bucket, hashed, w, now);
    if (waitMs > 0) return { waitMs };
    const slot = randomHex(16);
    for (const k of hashed) {
      await tx`INSERT INTO limit_events (bucket, key, at, slot, seq) VALUES (${bucket}, ${k}, ${now}, ${slot}, COALESCE((
        SELECT seq FROM limit_events WHERE bucket = ${bucket} AND key = ${k} ORDER BY seq DESC LIMIT 1), 0) + 1)`;
    }
    return { slot };
  }

  /**
   * On Postgres, a transaction-scoped advisory lock per key, in sorted order: whoever takes or gives
   * back an event under a key renumbers it alone (SQLite: the file's write lock does that).
   */
  private async lockKeys(tx: Sql, sortedKeys: readonly string[]): Promise<void> {
    if (this.db.dialect !== "postgres") return;
    for (const k of sortedKeys) await tx`SELECT pg_advisory_xact_lock(hashtextextended(${k}, 0))`;
  }

  /** Events under `key` in the last `windowMs`: what the owner's page shows against a cap (docs/owner.md §7). */
  async count(bucket: string, key: string, windowMs: number): Promise<number> {
    const [row] = await this.db.q<{ n: unknown }>`
      SELECT COUNT(*) AS n FROM limit_events WHERE bucket = ${bucket} AND key = ${this.keyOf(bucket, key)} AND at > ${this.clock() - windowMs}`;
    return row ? int(row.n) : 0;
  }

  /** How long (ms) until `reserve` would admit an event under every key; 0 when it would now. Takes nothing. */
  async wait(bucket: string, keys: string[], w: Window): Promise<number> {
    const hashed = [...new Set(keys.map((k) => this.keyOf(bucket, k)))];
    return this.db.tx((tx) => this.waitFor(tx, bucket, hashed, w, this.clock()));
  }

  /**
   * The longest wait any key imposes: its max-th newest event's time plus the window, minus now. A
   * key's events are numbered 1…newest in the order they were taken, with no gaps (release renumbers),
   * so that event is the one numbered newest − max + 1: two index probes (limit_events_seq), however
   * many events the window holds (schema 12; before, a walk over them).
   */
  private async waitFor(tx: Sql, bucket: string, keys: string[], w: Window, now: number): Promise<number> {
    let waitMs = 0;
    for (const key of keys) {
      const found = await this.probe(tx, bucket, key, w);
      const at = found.unnumbered ? await this.walkTo(tx, bucket, key, w, now) : found.at;
      if (at !== null && at > now - w.windowMs) waitMs = Math.max(waitMs, at + w.windowMs - now);
    }
    return waitMs;
  }

  /**
   * The time of the key's event numbered newest − max + 1 (or null), and whether the key holds an
   * event without a number, in one statement (one round trip on Postgres). An instance of a build
   * before schema 12 inserts events with seq 0 while a rolling upgrade proceeds (docs/deploy.md): the
   * numbers then do not count every event, so such a key is counted the old way (walkTo). (One that
   * gives back a numbered event leaves a gap, which counts one event too many: stricter, never
   * looser, until it ages out.)
   */
  private async probe(tx: Sql, bucket: string, key: string, w: Window): Promise<{ at: number | null; unnumbered: boolean }> {
    // The window is checked by the caller, not here: given `at > ?`, the planner walks the bucket's time index.
    const [row] = await tx<{ at: unknown; lowest: unknown }[]>`
      SELECT (SELECT seq FROM limit_events WHERE bucket = ${bucket} AND key = ${key} ORDER BY seq LIMIT 1) AS lowest,
             (SELECT at FROM limit_events WHERE bucket = ${bucket} AND key = ${key} AND seq = (
                SELECT seq FROM limit_events WHERE bucket = ${bucket} AND key = ${key} ORDER BY seq DESC LIMIT 1) - ${w.max - 1} LIMIT 1) AS at`;
    return { at: row?.at == null ? null : int(row.at), unnumbered: row?.lowest != null && int(row.lowest) === 0 };
  }

  /** The time of the key's max-th newest event in the window, found by walking it (before schema 12). */
  private async walkTo(tx: Sql, bucket: string, key: string, w: Window, now: number): Promise<number | null> {
    const [row] = await tx<{ at: unknown }[]>`
      SELECT at FROM limit_events WHERE bucket = ${bucket} AND key = ${key} AND at > ${now - w.windowMs}
       ORDER BY at DESC LIMIT 1 OFFSET ${w.max - 1}`;
    return row ? int(row.at) : null;
  }

  /** Gives a reservation back: as if it had never been taken. Idempotent. */
  async release(slot: string): Promise<void> {
    await this.db.tx((tx) => this.releaseIn(tx, slot));
  }

  /**
   * release() inside the caller's transaction: the slot's events deleted and each key's later events
   * numbered one lower, so the numbers stay dense (see waitFor). The keys are locked before the
   * numbers are read: a slot's keys never change, its numbers do.
   */
  async releaseIn(tx: Sql, slot: string): Promise<void> {
    const keys = await tx<{ key: string }[]>`SELECT DISTINCT key FROM limit_events WHERE slot = ${slot}`;
    if (keys.length === 0) return;
    await this.lockKeys(tx, keys.map((r) => r.key).sort());
    const gone = await tx<{ bucket: string; key: string; seq: unknown }[]>`
      DELETE FROM limit_events WHERE slot = ${slot} RETURNING bucket, key, seq`;
    for (const { bucket, key, seq } of gone) {
      if (int(seq) === 0) continue; // an older build's event had no number (see probe)
      await tx`UPDATE limit_events SET seq = seq - 1 WHERE bucket = ${bucket} AND key = ${key} AND seq > ${int(seq)}`;
    }
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
