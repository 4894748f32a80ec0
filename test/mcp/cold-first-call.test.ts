// The first tool call on a mailbox whose IMAP connection is not open (issue 42's first-call bound),
// through the whole server: the read tools name their folder, the pool EXAMINEs it in the
// connection's first turn with LOGIN (src/mail/imap/early-session.ts), so get_recent_emails,
// get_email and search_emails each wait for the TCP handshake and two turns; a spanning read of
// cold mailboxes starts them in parallel. The first connection to a plain-text server waits
// for its greeting (LOGINDISABLED could be there); the pool remembers it for every later one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { getHarness, type Harness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestConnection, issueTestToken, testAccount } from "../support/token.ts";
import { startTurnCounter, type TurnCounter } from "../support/turn-counter.ts";

const FOLDER = "ColdFirstCall";
let h: Harness;
let srv: TestServer;
let relay: TurnCounter;

beforeAll(async () => {
  h = await getHarness();
  for (const u of ["alice", "bob"] as const) {
    await h.dovecot.seedBulk(u, FOLDER, 6, (i) => fx.plainText({ subject: `${u} ${i + 1}`, from: "dave@example.org" }));
  }
  relay = await startTurnCounter({ host: "127.0.0.1", port: h.dovecot.port });
  srv = await startTestServer();
}, 30_000);
afterAll(async () => {
  relay?.stop();
  await srv?.stop();
});

const through = (u: "alice" | "bob") => testAccount(h.dovecot.users[u], { host: "127.0.0.1", port: relay.port });

/** Client turns of one tool call on a new token of `u` (its IMAP connection not open). */
async function coldTurns(tool: string, args: Record<string, unknown>, u: "alice" | "bob" = "bob") {
  const client = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, through(u)));
  try {
    relay.reset();
    const result = await callOk(client, tool, args);
    return { turns: relay.turns, result: result as Record<string, unknown> };
  } finally {
    await client.close();
  }
}

let firstSeen: Promise<number> | undefined;
/** The server's first connection through the relay (alice's), once: its turns. */
const seen = () => (firstSeen ??= coldTurns("get_recent_emails", { folder: FOLDER, limit: 3 }, "alice").then((r) => r.turns));

test("the server's first connection to a plain-text server waits for the greeting: four turns", async () => {
  expect(await seen()).toBe(4); // the greeting, LOGIN, EXAMINE, FETCH
});

test("then each read tool's first call on a cold mailbox is two turns, with its answer as before", async () => {
  await seen();
  const recent = await coldTurns("get_recent_emails", { folder: FOLDER, limit: 3 });
  expect(recent.turns).toBe(2);
  expect((recent.result.emails as Array<{ subject: string }>).map((e) => e.subject)).toEqual(["bob 6", "bob 5", "bob 4"]);
  const uid = (recent.result.emails as Array<{ uid: number }>)[0]!.uid;
  const email = await coldTurns("get_email", { folder: FOLDER, uid });
  expect(email.turns).toBe(2);
  expect(email.result.subject).toBe("bob 6");
  const search = await coldTurns("search_emails", { folder: FOLDER, from: "dave@example.org", limit: 2 });
  expect(search.turns).toBeLessThanOrEqual(3); // SEARCH, then FETCH of the page
  expect((search.result.emails as unknown[]).length).toBe(2);
});

test("INBOX named in any case is the folder the start EXAMINEd (RFC 3501 §5.1): two turns", async () => {
  await seen();
  await h.dovecot.deliver("bob", fx.plainText({ subject: "cold inbox" }));
  const r = await coldTurns("get_recent_emails", { folder: "inbox", limit: 1 });
  expect(r.turns).toBe(2);
  expect((r.result.emails as Array<{ subject: string }>)[0]!.subject).toBe("cold inbox");
});

test("a tool that names no folder still saves the greeting's wait: LOGIN goes out before it", async () => {
  await seen();
  expect((await coldTurns("list_mailboxes", {})).turns).toBe(3); // LOGIN, LIST … RETURN (STATUS), LSUB (four with the greeting waited for)
});

test("a spanning read of cold mailboxes: each starts in one turn, in parallel", async () => {
  await seen();
  const { token } = await issueTestConnection(srv.deps, [{ account: through("alice") }, { account: through("bob") }]);
  const client = await connectClient(srv.mcpUrl, token);
  try {
    relay.reset();
    const result = await callOk(client, "get_recent_emails", { folder: FOLDER, limit: 3 }) as { emails: Array<{ account: string }> };
    expect(result.emails.length).toBe(3);
    expect(relay.turns).toBe(4); // two per mailbox, on both connections at once
  } finally {
    await client.close();
  }
});
