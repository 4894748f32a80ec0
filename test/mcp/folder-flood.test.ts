// A mail server that lists 50,000 folders (issue 19, item 2), from the scripted fake IMAP server:
// imapflow's own listing merged LSUB into LIST in O(n²) on the event loop and sent one STATUS per
// folder (64.9 s for the call, /health waiting 54 s). Now the listing is bounded while it arrives,
// STATUS goes only to folders shown, and every other user's requests keep being answered.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { USERS } from "../support/dovecot.ts";
import { startFakeImap, type FakeImap } from "../support/fake-imap.ts";
import { call, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../support/token.ts";
import { withHealthPolls } from "../support/health-polls.ts";

const FOLDERS = 50_000;
let srv: TestServer;
let fake: FakeImap;
let client: Client;

beforeAll(async () => {
  fake = await startFakeImap(() => ({ folders: FOLDERS }));
  srv = await startTestServer({ pool: { opTimeoutMs: 120_000 } }); // the call must end by itself
  client = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(USERS.alice, fake)));
});
afterAll(async () => {
  await client?.close();
  await srv?.stop();
  await fake?.stop();
});

const polled = <T>(work: () => Promise<T>) => withHealthPolls(srv.baseUrl, work, 50);

describe("a server with 50,000 folders", () => {
  test("list_mailboxes: the first 5,000 with their counts, how many were left out; < 20 s; /health never waits 1 s", async () => {
    const { result: res, ms, worstHealth } = await polled(() => call(client, "list_mailboxes", {}));
    console.log(`folder flood: list_mailboxes ${Math.round(ms)} ms, /health worst ${Math.round(worstHealth)} ms`);
    expect(res.isError).toBeFalsy();
    const { mailboxes } = res.structuredContent as { mailboxes: Array<{ path: string; messages: number | null; subscribed: boolean }> };
    expect(mailboxes).toHaveLength(5000);
    expect(mailboxes[0]).toMatchObject({ path: "INBOX", messages: 1, subscribed: true });
    expect(mailboxes[4999]!.path).toBe("Folder/04999");
    expect(textOf(res)).toContain(`Only the first 5000 of the ${FOLDERS + 1} folders the server lists are shown`);
    expect(ms).toBeLessThan(20_000);
    expect(worstHealth).toBeLessThan(1000);
  }, 120_000);

  test("a folder looked up by its special use, which none has: an error naming a bounded list, in bounded time", async () => {
    const { result: res, ms, worstHealth } = await polled(() => call(client, "get_recent_emails", { folder: "\\Archive" }));
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/no folder marked \\Archive/);
    expect(textOf(res).length).toBeLessThan(10_000);
    expect(ms).toBeLessThan(20_000);
    expect(worstHealth).toBeLessThan(1000);
  }, 120_000);
});
