// A mailbox taken out of a connection (docs/owner.md: `mailbox-mcp revoke <address>`, the owner
// page's "remove this mailbox"): its pooled IMAP connection closes at once, and the mailboxes left
// keep reading their own mail. Pooled connections are keyed by the mailbox's position in the
// connection, which never shifts: after the middle of three goes, the third still reads the third's
// mail, not the connection that was logged in as the middle one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getHarness, type Harness } from "../support/harness.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import { issueTestConnection, testAccount } from "../support/token.ts";
import { withImap } from "./seed.ts";
import { startRevocationPoller, type RevocationPoller } from "../../src/oauth/lifecycle/revocation-poller.ts";
import { removeMailbox } from "../../src/oauth/account/actions.ts";
import { silentLogger } from "../../src/log.ts";

const FOLDER = "AccountsRemove";
let h: Harness;
let srv: TestServer;
let poller: RevocationPoller;
const clients: Client[] = [];
const mail = (to: string, subject: string) =>
  `From: Carol <carol@example.test>\r\nTo: ${to}\r\nSubject: ${subject}\r\nDate: Mon, 01 Jun 2026 08:00:00 +0000\r\nMessage-ID: <${subject.replace(/\W/g, "")}@t>\r\n\r\nbody ${subject}\r\n`;
const subjects = (r: { emails: { subject: string }[] }) => r.emails.map((e) => e.subject);
const openImap = () => srv.deps.runtime.mail.imap.stats().open;

beforeAll(async () => {
  h = await getHarness();
  const { alice, bob } = h.dovecot.users;
  for (const u of [alice, bob]) await withImap(h.dovecot, u, (c) => c.mailboxCreate(FOLDER).catch(() => {}));
  await h.dovecot.deliver(alice.user, mail(alice.email, "Alice's own"), FOLDER);
  await h.dovecot.deliver(bob.user, mail(bob.email, "Bob's own"), FOLDER);
  srv = await startTestServer();
  // The server hears of removals made elsewhere (the CLI, another instance) from the store's revocation rows.
  poller = await startRevocationPoller(srv.deps.store.revocations, srv.deps.events, silentLogger, 60_000, 60_000);
}, 30_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await poller?.stop();
  await srv?.stop();
});

async function connect(mailboxes: Parameters<typeof issueTestConnection>[1]) {
  const issued = await issueTestConnection(srv.deps, mailboxes);
  const client = await connectClient(srv.mcpUrl, issued.token);
  clients.push(client);
  return { ...issued, client };
}

describe("a mailbox removed from a connection", () => {
  test("revoke <address> elsewhere: the middle of three closes on the next revocation read; the third still reads the third's mail", async () => {
    const { alice, bob } = h.dovecot.users;
    // The middle is bob's login, the third alice's again under another address: were positions to
    // shift, the third would be served by the connection logged in as bob.
    const { client } = await connect([
      { account: testAccount(alice, h.dovecot) },
      { account: { ...testAccount(bob, h.dovecot), email: "middle@example.test" } },
      { account: { ...testAccount(alice, h.dovecot), email: "third@example.test" } },
    ]);
    const before = openImap();
    const all = await callOk(client, "get_recent_emails", { folder: FOLDER });
    expect(all.accounts_failed).toEqual([]);
    expect(openImap()).toBe(before + 3);
    // As the CLI does it: straight on the store, so this server learns of it only through the revocation rows.
    const { removed } = await srv.deps.store.mailboxes.removeAddress("middle@example.test");
    expect(removed).toHaveLength(1);
    await poller.poll();
    expect(openImap()).toBe(before + 2);
    const third = await callOk(client, "get_recent_emails", { folder: FOLDER, account: "third@example.test" });
    expect(subjects(third)).toEqual(["Alice's own"]);
    expect(openImap()).toBe(before + 2);
    const spanned = await callOk(client, "get_recent_emails", { folder: FOLDER });
    expect(new Set(spanned.emails.map((e: { account: string }) => e.account))).toEqual(new Set(["alice@example.test", "third@example.test"]));
    expect(subjects(spanned)).not.toContain("Bob's own");
    expect(textOf(await call(client, "get_recent_emails", { folder: FOLDER, account: "middle@example.test" }))).toContain("not a mailbox of this connection");
  });

  test("the owner page's remove-mailbox closes its connection in this process at once, without waiting for a read", async () => {
    const { alice, bob } = h.dovecot.users;
    const { client, grantId } = await connect([{ account: testAccount(alice, h.dovecot) }, { account: testAccount(bob, h.dovecot) }]);
    const before = openImap();
    await callOk(client, "list_mailboxes");
    expect(openImap()).toBe(before + 2);
    const [, bobRow] = await srv.deps.store.mailboxes.list(grantId);
    const deps = { view: srv.deps.store.ownerView, activity: srv.deps.store.activity, events: srv.deps.events, log: silentLogger, identities: srv.deps.store.identities };
    expect(await removeMailbox(deps, { mailboxKey: bobRow!.mailboxKey! } as never, grantId)).toBe("done");
    expect(openImap()).toBe(before + 1);
    const left = await callOk(client, "get_recent_emails", { folder: FOLDER });
    expect(subjects(left)).toEqual(["Alice's own"]);
  });
});
