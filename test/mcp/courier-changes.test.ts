// get_changes on a Courier-like server (issue 41, finding 6), the scripted fake playing Courier 5:
// no UIDNEXT on SELECT, no CONDSTORE / QRESYNC / ESEARCH. The first get_changes after a cursor must
// report exactly what another client changed: one arrival, one expunge; not the whole folder as new.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { USERS } from "../support/dovecot.ts";
import { courierDeliver, courierExpunge, courierState, type CourierState } from "../support/fake-courier.ts";
import { startFakeImap, type FakeImap } from "../support/fake-imap.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";

let srv: TestServer;
let fake: FakeImap;
let state: CourierState;

beforeAll(async () => {
  fake = await startFakeImap(() => ({ courier: state }));
  srv = await startTestServer();
});
afterAll(async () => {
  await srv.stop();
  await fake.stop();
});

async function newClient() {
  state = courierState();
  return connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(USERS.alice, fake)));
}

describe("get_changes where SELECT gives no UIDNEXT", () => {
  for (const selectedBefore of [false, true]) {
    test(`cursor taken ${selectedBefore ? "with INBOX selected by an earlier call" : "with INBOX selected by the call itself"}: then exactly one added, one gone`, async () => {
      const mcp = await newClient();
      if (selectedBefore) await callOk(mcp, "get_recent_emails", { folder: "INBOX", limit: 1 });
      const first = await callOk(mcp, "get_changes", { folder: "INBOX" });
      const uid = courierDeliver(state);
      courierExpunge(state, 2);
      // Before: the cursor said UIDNEXT 1, so every message came back as added and uid 2 was not missed.
      const res = await callOk(mcp, "get_changes", { folder: "INBOX", since: first.cursor });
      expect({ added: res.added.map((e: { uid: number }) => e.uid), vanished: res.vanished, full_resync: res.full_resync })
        .toEqual({ added: [uid], vanished: [2], full_resync: false });
      expect(state.statuses.some((s) => /UIDNEXT/i.test(s))).toBe(true); // asked of STATUS
      const quiet = await callOk(mcp, "get_changes", { folder: "INBOX", since: res.cursor });
      expect([quiet.added, quiet.vanished, quiet.full_resync]).toEqual([[], [], false]);
      await mcp.close();
    });
  }
});
