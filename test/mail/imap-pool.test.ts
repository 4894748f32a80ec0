// The IMAP pool against the harness Dovecot (user bob): one shared connection per token, lazy
// credentials, idle close by the clock, the global cap, and close on revocation.
import { beforeAll, describe, expect, test } from "bun:test";
import type { ImapFlow } from "imapflow";
import { manualClock } from "../../src/clock.ts";
import { silentLogger } from "../../src/log.ts";
import { ImapPool } from "../../src/mail/imap/pool.ts";
import { defaultMaxConnections, machineLimits } from "../../src/mail/imap/pool-size.ts";
import { recentEmails } from "../../src/mail/read/recent.ts";
import { type MailAccount } from "../../src/mail/account.ts";
import { MailError } from "../../src/mail/errors.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { callOk, connectClient, startTestServer } from "../support/mcp-client.ts";
import { issueTestGrant, testAccount } from "../support/token.ts";
import { until } from "../support/until.ts";

let h: Harness;
let account: MailAccount;
beforeAll(async () => {
  h = await getHarness();
  account = testAccount(h.dovecot.users.bob, h.dovecot);
});

function pool(opts: ConstructorParameters<typeof ImapPool>[2] = {}) {
  const clock = manualClock();
  let loads = 0;
  const load = async () => { loads++; return account; };
  return { clock, pool: new ImapPool(clock, silentLogger, opts), load, loads: () => loads };
}

const inbox = (c: ImapFlow) => recentEmails(c, { folder: "INBOX", limit: 1, beforeUid: null, unreadOnly: false });
const deferred = () => { let open!: () => void; const p = new Promise<void>((r) => (open = r)); return { p, open }; };

describe("ImapPool", () => {
  test("one connection per token, shared by concurrent calls; credentials loaded once", async () => {
    const t = pool();
    const clients = new Set<ImapFlow>();
    await Promise.all(Array.from({ length: 5 }, () => t.pool.withClient("tok-a", t.load, async (c) => { clients.add(c); await inbox(c); })));
    expect(clients.size).toBe(1);
    expect(t.loads()).toBe(1);
    expect(t.pool.openCount).toBe(1);
    // Locks keep concurrent work in different folders correct on the one connection.
    const [a, b] = await Promise.all(["INBOX", "Drafts"].map((folder) =>
      t.pool.withClient("tok-a", t.load, (c) => recentEmails(c, { folder, limit: 1, beforeUid: null, unreadOnly: false }))));
    expect([a!.folder, b!.folder]).toEqual(["INBOX", "Drafts"]);
    t.pool.closeAll();
  });

  test("closed after 5 idle minutes; reopened on next use", async () => {
    const t = pool();
    await t.pool.withClient("tok-a", t.load, inbox);
    t.clock.advance(4 * 60_000);
    t.pool.sweep();
    expect(t.pool.openCount).toBe(1);
    t.clock.advance(60_000);
    t.pool.sweep();
    expect(t.pool.openCount).toBe(0);
    await t.pool.withClient("tok-a", t.load, inbox);
    expect(t.loads()).toBe(2);
    expect(t.pool.stats()).toMatchObject({ open: 1, opened: 2, idleClosed: 1, evicted: 0 });
    t.pool.closeAll();
  });

  test("without a cap given, the machine's (src/mail/imap/pool-size.ts)", () => {
    expect(pool().pool.options.maxConnections).toBe(defaultMaxConnections(machineLimits()));
  });

  test("at the cap the least recently used idle connection is closed", async () => {
    const t = pool({ maxConnections: 2 });
    const seen: Record<string, ImapFlow> = {};
    for (const tok of ["a", "b"]) {
      await t.pool.withClient(tok, t.load, async (c) => { seen[tok] = c; await inbox(c); });
      t.clock.advance(1000);
    }
    // "a" is used again: now "b" is the least recently used.
    await t.pool.withClient("a", t.load, inbox);
    t.clock.advance(1000);
    await t.pool.withClient("c", t.load, inbox);
    expect(t.pool.openCount).toBe(2);
    expect(seen.b!.usable).toBe(false);
    expect(seen.a!.usable).toBe(true);
    expect(t.pool.stats()).toMatchObject({ open: 2, max: 2, opened: 3, evicted: 1, idleClosed: 0 });
    t.pool.closeAll();
  });

  test("at the cap with every connection busy: a clear error", async () => {
    const t = pool({ maxConnections: 1 });
    const gate = deferred();
    let holding = false;
    const busy = t.pool.withClient("a", t.load, async (c) => { await inbox(c); holding = true; await gate.p; });
    await until(() => holding, { what: "the first call to hold the only connection" });
    const err = await t.pool.withClient("b", t.load, inbox).catch((e) => e);
    expect(err).toBeInstanceOf(MailError);
    expect(err.message).toMatch(/maximum of 1 mail connections/);
    gate.open();
    await busy;
    t.pool.closeAll();
  });

  test("closeToken drops the connection even mid-use", async () => {
    const t = pool();
    const gate = deferred();
    let inUse = false;
    const running = t.pool.withClient("a", t.load, async (c) => { inUse = true; await gate.p; return inbox(c); }).catch((e) => e);
    await until(() => inUse, { what: "the connection to be in use" });
    t.pool.closeToken("a");
    gate.open();
    expect(await running).toBeInstanceOf(MailError);
    expect(t.pool.openCount).toBe(0);
  });

  test("a loader failure (revoked credentials) is passed through", async () => {
    const t = pool();
    const err = await t.pool.withClient("a", async () => { throw new MailError("auth", "gone"); }, inbox).catch((e) => e);
    expect(err.message).toBe("gone");
  });
});

test("revoking a token closes its pooled IMAP connection", async () => {
  const srv = await startTestServer();
  try {
    const grant = await issueTestGrant(srv.deps, account);
    const client = await connectClient(srv.mcpUrl, grant.token);
    await callOk(client, "list_mailboxes");
    expect(srv.deps.imap.openCount).toBe(1);
    await srv.deps.grants.revokeToken(grant.token);
    await srv.deps.events.emitRevoked(grant.tokenId);
    expect(srv.deps.imap.openCount).toBe(0);
    expect((await srv.deps.sessions.size())).toBe(0);
  } finally {
    await srv.stop();
  }
});
