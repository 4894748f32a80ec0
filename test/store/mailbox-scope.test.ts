// Whom a mailbox has written to is its own (src/store/mailbox-scope.ts, send-recipients.ts): two mailboxes
// of one connection do not share known recipients; the first mailbox keeps the rows written before
// several mailboxes existed; the rows go with their grant.
import { describe, expect, test } from "bun:test";
import { manualClock } from "../../src/clock.ts";
import { grantOfScope, mailboxScope } from "../../src/store/mailbox-scope.ts";
import { migrate } from "../../src/store/schema.ts";
import { storesOver } from "../../src/store/store.ts";
import { BACKENDS, closeStoresAfterEach } from "../support/stores.ts";
import { issueTestConnection, testAccount } from "../support/token.ts";

closeStoresAfterEach();

test("scopes: the first mailbox is the grant itself", () => {
  expect(mailboxScope("g1", 0)).toBe("g1");
  expect(mailboxScope("g1", 3)).toBe("g1#3");
  expect(grantOfScope("g1#3")).toBe("g1");
});

for (const backend of BACKENDS) {
  describe(`known recipients per mailbox on ${backend.name}`, () => {
    test("a recipient of the second mailbox is new to the first", async () => {
      const db = await backend.create();
      await migrate(db);
      const stores = storesOver(db, new Uint8Array(32).fill(9), manualClock(Date.now()));
      const user = (n: string) => ({ user: `${n}@example.test`, pass: "p", email: `${n}@example.test` });
      const { grantId } = await issueTestConnection(stores, [{ account: testAccount(user("a"), { host: "localhost", port: 1 }) },
        { account: testAccount(user("b"), { host: "localhost", port: 1 }) }]);
      await stores.sendRecipients.add(mailboxScope(grantId, 1), ["Carol@example.net"]);
      expect([...await stores.sendRecipients.known(mailboxScope(grantId, 1), ["carol@example.net"])]).toEqual(["carol@example.net"]);
      expect((await stores.sendRecipients.known(mailboxScope(grantId, 0), ["carol@example.net"])).size).toBe(0);
      const rows = async () => Number((await db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM send_recipients WHERE grant_id = ${grantId}`)[0]!.n);
      expect(await rows()).toBe(1);
      await stores.admin.revoke([grantId]);
      expect(await rows()).toBe(0);
    });
  });
}
