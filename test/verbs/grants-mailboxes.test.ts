// `mailbox-mcp grants` and `revoke <address>` on connections of several mailboxes (docs/owner.md §1):
// the listing names each mailbox; revoking an address takes that mailbox out of the connection, which
// keeps its others, and revokes a connection left with none; `revoke <grant-id>` ends the whole one.
import { expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { migrate } from "../../src/store/schema.ts";
import { storesOver } from "../../src/store/store.ts";
import { grantsVerb, revokeVerb } from "../../src/verbs/grants.ts";
import { testConfig } from "../support/config.ts";
import { BACKENDS, closeStoresAfterEach } from "../support/stores.ts";
import { issueTestConnection, testAccount } from "../support/token.ts";

closeStoresAfterEach();

const user = (n: string) => ({ user: `${n}@example.test`, pass: "p", email: `${n}@example.test` });
const account = (n: string) => ({ account: testAccount(user(n), { host: "localhost", port: 1 }) });

test("grants lists the mailboxes; revoke <address> removes one, then the connection; revoke <id> the whole", async () => {
  const db = await BACKENDS[0]!.create();
  await migrate(db);
  const store = storesOver(db, new Uint8Array(32).fill(5), manualClock(Date.now()));
  const config = testConfig();
  const two = await issueTestConnection(store, [account("ann"), account("bea")]);
  const other = await issueTestConnection(store, [account("cid"), account("dan")]);
  let text = "";
  const out = (s: string) => void (text += s);
  await grantsVerb(store, config, false, out);
  expect(text).toContain("mailboxes  ann@example.test (read/write, direct), bea@example.test (read/write, direct)");
  text = "";
  await grantsVerb(store, config, true, out);
  expect(JSON.parse(text).find((g: { id: string }) => g.id === two.grantId).mailboxes.map((m: { address: string }) => m.address))
    .toEqual(["ann@example.test", "bea@example.test"]);
  text = "";
  await revokeVerb(store, config, "BEA@example.test", "mailbox-mcp", out);
  expect(text).toContain(`Removed bea@example.test from ${two.grantId.slice(0, 8)} (its other mailboxes stay)`);
  expect(await store.grants.findToken(two.token)).not.toBeNull();
  text = "";
  await revokeVerb(store, config, "ann@example.test", "mailbox-mcp", out);
  expect(text).toContain(`Revoked ${two.grantId.slice(0, 8)}  ann@example.test`);
  expect(await store.grants.findToken(two.token)).toBeNull();
  await revokeVerb(store, config, other.grantId.slice(0, 8), "mailbox-mcp", () => {});
  expect(await store.grants.findToken(other.token)).toBeNull();
  expect((await store.mailboxes.list(other.grantId))).toEqual([]);
});
