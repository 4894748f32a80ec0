// A Postgres outage (a restart, as after a crash or a failover) is survived without restarting the
// instances: Bun.SQL's pool reconnects for the next query, and the LISTEN behind revocation (src/oauth/
// revocation-poller.ts) re-subscribes by itself, so a revocation made after the outage still arrives
// by NOTIFY. A private Postgres of its own: restarting the run's shared one would cut other tests.
import { afterAll, expect, test } from "bun:test";
import { memoryLogger } from "../../src/log.ts";
import { startRevocationPoller } from "../../src/oauth/lifecycle/revocation-poller.ts";
import { TokenEvents } from "../../src/oauth/lifecycle/token-events.ts";
import { openStore, type Store } from "../../src/store/store.ts";
import { USERS } from "../support/dovecot.ts";
import { startPostgres, type PostgresServer } from "../support/postgres.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { until } from "../support/until.ts";

let pg: PostgresServer | undefined;
const stores: Store[] = [];
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close().catch(() => {})));
  await pg?.stop();
});

test("after a Postgres restart the store answers at once, and revocations still arrive by NOTIFY", async () => {
  pg = await startPostgres();
  const url = await pg.database("outage");
  const open = async () => {
    const s = await openStore({ databaseUrl: url, sqlitePath: ":memory:", masterKey: new Uint8Array(32).fill(1), clock: Date.now });
    stores.push(s);
    return s;
  };
  const [here, there] = [await open(), await open()];
  const { token, tokenId } = await issueTestGrant(here, testAccount(USERS.alice, { host: "imap.example.test", port: 993 }));
  const events = new TokenEvents();
  const got: string[] = [];
  events.onRevoked((id) => void got.push(id));
  // Neither interval comes round during the test: only a notification can deliver the revocation.
  const poller = await startRevocationPoller(here.revocations, events, memoryLogger(), 600_000, 600_000);

  await pg.restart();
  // Every pooled connection died with the server; the first query after it must not fail.
  expect((await here.grants.findToken(token))?.id).toBe(tokenId);
  await there.grants.revokeToken(token);
  await until(() => got.length > 0, { what: "the revocation to arrive by NOTIFY after the restart", timeoutMs: 10_000 });
  expect(got).toEqual([tokenId]);
  await poller.stop();
}, 60_000);
