// The first tool call on a mailbox whose IMAP connection is not open (issue 42's first-call bound),
// through the whole server: the read tools name their folder, the pool EXAMINEs it in the
// connection's first turn with LOGIN (src/mail/imap/early-session.ts), so get_recent_emails,
// get_email and search_emails each wait for the TCP handshake and two turns; a spanning read of
// cold mailboxes starts them in parallel. The first connection to a plain-text server waits
// for its greeting (LOGINDISABLED could be there); the pool remembers it for every later one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getHarness, type Harness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { issueTestConnection, issueTestToken, testAccount } from "../support/token.ts";
import { startTurnCounter, type TurnCounter } from "../support/turn-counter.ts";
import { withImap } from "./seed.ts";

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

test("a spanning read of cold mailboxes: each starts in one turn, in parallel (their newest pages known: one turn each)", async () => {
  await seen();
  await coldTurns("get_recent_emails", { folder: FOLDER, limit: 3 }, "bob"); // where bob's newest page begins, known now
  const { token } = await issueTestConnection(srv.deps, [{ account: through("alice") }, { account: through("bob") }]);
  const client = await connectClient(srv.mcpUrl, token);
  try {
    relay.reset();
    const result = await callOk(client, "get_recent_emails", { folder: FOLDER, limit: 3 }) as { emails: Array<{ account: string }> };
    expect(result.emails.length).toBe(3);
    expect(relay.turns).toBe(2); // LOGIN + EXAMINE + FETCH on both connections at once
  } finally {
    await client.close();
  }
});

describe("the newest page in the first turn, from where this process last saw it begin", () => {
  const FRESH = "ColdPrefetch";
  const page = (r: { result: Record<string, unknown> }) => (r.result.emails as Array<{ uid: number; subject: string; seen: boolean }>);
  beforeAll(async () => {
    await h.dovecot.seedBulk("bob", FRESH, 30, (i) => fx.plainText({ subject: `P ${i + 1}` }));
  });

  test("a second token's first read of the folder: one turn, the same page as a read that waited", async () => {
    await seen();
    const waited = await coldTurns("get_recent_emails", { folder: FRESH, limit: 5 });
    expect(waited.turns).toBe(2);
    await withImap(h.dovecot, h.dovecot.users.bob, async (c) => { // another client reads one of them
      await c.mailboxOpen(FRESH);
      await c.messageFlagsAdd(String(page(waited)[1]!.uid), ["\\Seen"], { uid: true });
    });
    const early = await coldTurns("get_recent_emails", { folder: FRESH, limit: 5 });
    expect(early.turns).toBe(1);
    const fixed = (r: typeof early) => page(r).map(({ seen: _, ...rest }) => rest); // every field but the one flag changed
    expect(fixed(early)).toEqual(fixed(waited));
    expect(page(early).map((e) => e.subject)).toEqual(["P 30", "P 29", "P 28", "P 27", "P 26"]);
    expect([page(waited)[1]!.seen, page(early)[1]!.seen]).toEqual([false, true]); // its flags as the server has them now
    expect(early.result.next_before_uid).toBe(waited.result.next_before_uid);
  });

  test("new mail since: still one turn, the new messages on top", async () => {
    await coldTurns("get_recent_emails", { folder: FRESH, limit: 5 });
    for (const n of [1, 2]) await h.dovecot.deliver("bob", fx.plainText({ subject: `P new ${n}` }), FRESH);
    const r = await coldTurns("get_recent_emails", { folder: FRESH, limit: 5 });
    expect(r.turns).toBe(1);
    expect(page(r).map((e) => e.subject).slice(0, 3)).toEqual(["P new 2", "P new 1", "P 30"]);
  });

  test("more new mail than the first turn asks for, or a message of the page expunged: the page read as before (two turns), right", async () => {
    await coldTurns("get_recent_emails", { folder: FRESH, limit: 5 });
    await h.dovecot.seedBulk("bob", FRESH, 120, (i) => fx.plainText({ subject: `P flood ${i + 1}` }));
    const flooded = await coldTurns("get_recent_emails", { folder: FRESH, limit: 5 });
    expect(flooded.turns).toBe(2);
    expect(page(flooded)[0]!.subject).toBe("P flood 120");
    await withImap(h.dovecot, h.dovecot.users.bob, async (c) => {
      await c.mailboxOpen(FRESH);
      await c.messageDelete(String(page(flooded)[2]!.uid), { uid: true });
    });
    const gone = await coldTurns("get_recent_emails", { folder: FRESH, limit: 5 });
    expect(gone.turns).toBe(2);
    expect(page(gone).map((e) => e.subject)).toEqual(["P flood 120", "P flood 119", "P flood 117", "P flood 116", "P flood 115"]);
  });
});
