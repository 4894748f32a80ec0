// Schema version 12 (../migrations.ts): each rate-limit event numbered within its key, so a window's
// check is two index probes however many events the window holds (src/store/limits.ts).
//
// `limit_events.seq`: 1, 2, 3, … per (bucket, key) in the order the events were taken; a released
// event's later ones move down by one, so the numbers stay dense and "the max-th newest event" is the
// one numbered `newest - max + 1`. Before this, a check walked the window's events one by one to the
// max-th newest (an OFFSET): under a generous send cap, hundreds of index entries per send per window.
// Events already kept are numbered by time (ties by insertion); the time index they were found by
// gives way to the number's. An instance still on an older build during a rolling upgrade inserts
// events with seq 0: limits.ts counts a key holding one the old way.
import type { Migration } from "./migration.ts";

export const V12_LIMIT_ORDER: Migration = {
  sqlite: `
  ALTER TABLE limit_events ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
  UPDATE limit_events SET seq = numbered.n
    FROM (SELECT rowid AS id, ROW_NUMBER() OVER (PARTITION BY bucket, key ORDER BY at, rowid) AS n FROM limit_events) AS numbered
   WHERE limit_events.rowid = numbered.id;
  DROP INDEX limit_events_key;
  CREATE INDEX limit_events_seq ON limit_events(bucket, key, seq);
  `,
  postgres: `
  ALTER TABLE limit_events ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
  UPDATE limit_events SET seq = numbered.n
    FROM (SELECT ctid AS id, ROW_NUMBER() OVER (PARTITION BY bucket, key ORDER BY at, ctid) AS n FROM limit_events) AS numbered
   WHERE limit_events.ctid = numbered.id;
  DROP INDEX limit_events_key;
  CREATE INDEX limit_events_seq ON limit_events(bucket, key, seq);
  `,
};
