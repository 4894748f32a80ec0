// The cluster pieces of the harness work on this machine: a private Postgres answers Bun.SQL, and
// haproxy spreads requests over its backends round robin, without affinity.
import { afterAll, expect, test } from "bun:test";
import { startHaproxy } from "./haproxy.ts";
import { startPostgres, type PostgresServer } from "./postgres.ts";

let pg: PostgresServer | undefined;
afterAll(async () => { await pg?.stop(); }, 15_000);

test("a private Postgres: initdb, pg_ctl, a database of our own, Bun.SQL", async () => {
  pg = await startPostgres();
  const sql = new Bun.SQL(await pg.database("harness"));
  try {
    await sql`CREATE TABLE t (id text PRIMARY KEY, n integer NOT NULL)`;
    await sql.begin(async (tx) => { await tx`INSERT INTO t VALUES (${"a"}, ${1})`; });
    expect(await sql`SELECT n FROM t WHERE id = ${"a"}`).toEqual([{ n: 1 }]);
  } finally {
    await sql.close();
  }
}, 30_000);

test("haproxy: round robin over the backends, no affinity", async () => {
  const servers = [1, 2, 3].map((n) => Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(String(n)) }));
  const lb = await startHaproxy(servers.map((s) => s.port!));
  try {
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push(await (await fetch(`http://127.0.0.1:${lb.port}/health`, { headers: { connection: "keep-alive" } })).text());
    expect(new Set(seen)).toEqual(new Set(["1", "2", "3"]));
  } finally {
    await lb.stop();
    for (const s of servers) s.stop(true);
  }
}, 30_000);
