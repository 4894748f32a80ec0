// The first call on a cold pooled connection (issue 42: at most 3.5 round trips): LOGIN and the
// EXAMINE of the call's folder go out before the greeting (src/mail/imap/early-session.ts), so the
// call is two client turns (LOGIN + EXAMINE, then FETCH) where a waited start takes four (the
// greeting, LOGIN, EXAMINE, FETCH). The connection is handed out with the post-login capability
// list; a wrong password fails as before; plain text waits for a greeting that did not disable
// LOGIN; a server that loses what follows LOGIN is noted and served the waited way; an access
// token's AUTHENTICATE goes early alone, and its refusal is answered at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { tracking } from "../../src/mail/imap/client.ts";
import { connectImap, DEFAULT_TIMEOUTS, type OpenHints } from "../../src/mail/imap/connect.ts";
import { earlyPlan, type PlanInput } from "../../src/mail/imap/early-plan.ts";
import { toMailError } from "../../src/mail/imap/errors.ts";
import { ServerMemory, serverKey } from "../../src/mail/imap/server-facts.ts";
import { MailError } from "../../src/mail/errors.ts";
import { recentEmails } from "../../src/mail/read/recent.ts";
import { startFakeImap } from "../support/fake-imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";
import { testAccount } from "../support/token.ts";
import { startTlsImap } from "../support/tls-imap.ts";
import { startTurnCounter, type TurnCounter } from "../support/turn-counter.ts";

const FOLDER = "ColdLogin";
let h: Harness;
let relay: TurnCounter;
type Client = Awaited<ReturnType<typeof connectImap>>;
const recent = (client: Client, folder = FOLDER) => recentEmails(client, { folder, limit: 5, beforeUid: null, unreadOnly: false });

beforeAll(async () => {
  h = await getHarness();
  await h.dovecot.seedBulk("bob", FOLDER, 8, (i) => fx.plainText({ subject: `Cold ${i + 1}` }));
  relay = await startTurnCounter({ host: "127.0.0.1", port: h.dovecot.port });
}, 30_000);
afterAll(() => relay?.stop());

const bob = () => testAccount(h.dovecot.users.bob, { host: "127.0.0.1", port: relay.port });
/** Memory of a plain-text server already seen greeting without LOGINDISABLED. */
const seen = (account = bob()) => {
  const memory = new ServerMemory();
  memory.note(serverKey(account.imap), { loginDisabled: false });
  return memory;
};

test("a cold pooled connection's first read: two client turns (LOGIN + EXAMINE, then FETCH), the answer and the view as before", async () => {
  relay.reset();
  const client = await connectImap(bob(), DEFAULT_TIMEOUTS, false, { memory: seen(), examine: FOLDER });
  try {
    const page = await recent(client);
    expect(relay.turns).toBe(2);
    expect(page.emails.map((e) => e.subject)).toEqual(["Cold 8", "Cold 7", "Cold 6", "Cold 5", "Cold 4"]);
    expect(tracking(client)?.selects).toBe(1);
    expect(client.capabilities.has("CONDSTORE")).toBe(true); // the post-login list, from LOGIN's OK
    expect(client.capabilities.has("AUTH=PLAIN")).toBe(false); // not the greeting's
    relay.reset();
    await recent(client); // warm: the view is checked, nothing opened again
    expect(relay.turns).toBeLessThanOrEqual(2);
    expect(tracking(client)?.selects).toBe(1);
  } finally {
    await client.logout();
  }
});

test("without a folder for the first call, LOGIN alone goes before the greeting: three turns, the same page", async () => {
  relay.reset();
  const client = await connectImap(bob(), DEFAULT_TIMEOUTS, false, { memory: seen() });
  try {
    expect((await recent(client)).emails.length).toBe(5);
    expect(relay.turns).toBe(3);
  } finally {
    await client.logout();
  }
});

test("over implicit TLS (RFC 8314) the first turn needs no memory of the server: two turns, the certificate checked", async () => {
  const relayTls = await startTlsImap({ host: "127.0.0.1", port: h.dovecot.port });
  try {
    // By name: a certificate is checked against the host name (imapflow sends no SNI for an address).
    const account = { ...bob(), imap: { host: "localhost", port: relayTls.port, security: "tls" as const } };
    const refused = await connectImap(account, DEFAULT_TIMEOUTS, false, { examine: FOLDER }).then(() => null, (e: unknown) => e);
    expect(String((refused as Error)?.message ?? refused)).toMatch(/self[- ]signed|certificate/i); // nothing sent to an unverified server
    relayTls.trust();
    relayTls.reset();
    const client = await connectImap(account, DEFAULT_TIMEOUTS, false, { memory: new ServerMemory(), examine: FOLDER });
    try {
      expect((await recent(client)).emails.map((e) => e.subject)[0]).toBe("Cold 8");
      expect(relayTls.turns).toBe(2);
      expect(client.capabilities.has("CONDSTORE")).toBe(true);
    } finally {
      await client.logout();
    }
    // By address too (a homelab server): no SNI, the certificate checked against the address (its IP SAN).
    const byAddress = await connectImap({ ...account, imap: { ...account.imap, host: "127.0.0.1" } }, DEFAULT_TIMEOUTS, false, { examine: FOLDER });
    expect((await recent(byAddress)).emails.length).toBe(5);
    await byAddress.logout();
  } finally {
    relayTls.stop();
  }
});

test("plain text to a server not yet seen: the waited start (four turns: the greeting, LOGIN, EXAMINE, FETCH), which teaches the memory that LOGIN is allowed there", async () => {
  const memory = new ServerMemory();
  relay.reset();
  const client = await connectImap(bob(), DEFAULT_TIMEOUTS, false, { memory, examine: FOLDER });
  try {
    await recent(client);
    expect(relay.turns).toBe(4); // the greeting waited for (it carries the capabilities), LOGIN, EXAMINE, FETCH
    expect(memory.get(serverKey(bob().imap))?.loginDisabled).toBe(false);
  } finally {
    await client.logout();
  }
});

test("nothing goes before the greeting where it could send what a waited start would not", () => {
  const auth = { user: "bob", pass: "secret" };
  const clear = { loginDisabled: false, examineLost: false, xoauth2: false, oauthbearer: false, gmail: false };
  const plan = (p: Partial<PlanInput>) => earlyPlan({ auth, security: "tls", facts: null, examine: "INBOX", host: "imap.example.test", port: 993, ...p });
  expect(plan({ security: "none" })).toBeNull(); // plain text, server not seen
  expect(plan({ security: "none", facts: { ...clear, loginDisabled: true } })).toBeNull(); // it disabled LOGIN
  expect(plan({ security: "starttls", facts: clear })).toBeNull(); // nothing may follow STARTTLS unanswered
  expect(plan({ auth: { user: "bob", pass: "sécret" }, facts: clear })).toBeNull(); // not a plain quoted string
  expect(plan({})?.examine).toBe("INBOX");
  expect(plan({ examine: "\\Sent" })?.examine).toBeNull(); // a special-use name needs a LIST first
  expect(plan({ facts: { ...clear, examineLost: true } })?.examine).toBeNull();
  expect(plan({ auth: { user: 'b"o\\b', pass: "p" }, examine: null })?.line.toString()).toBe('L0 LOGIN "b\\"o\\\\b" "p"');
  // An access token: only to a server seen offering the mechanism, alone (a refusal is a continuation).
  const token = { user: "bob@example.test", accessToken: "tok" };
  expect(plan({ auth: token })).toBeNull();
  expect(plan({ auth: token, facts: clear })).toBeNull();
  const x = plan({ auth: token, facts: { ...clear, xoauth2: true } })!;
  expect(x.line.toString()).toBe(`L0 AUTHENTICATE XOAUTH2 ${Buffer.from("user=bob@example.test\x01auth=Bearer tok\x01\x01").toString("base64")}`);
  expect([x.examine, x.breaker]).toEqual([null, ""]);
  const both = { ...clear, xoauth2: true, oauthbearer: true };
  expect(plan({ auth: token, facts: both })!.line.toString()).toStartWith("L0 AUTHENTICATE OAUTHBEARER "); // imapflow's preference
  expect(plan({ auth: token, facts: both })!.breaker).toBe("AQ==");
  expect(plan({ auth: token, facts: both, sasl: "xoauth2" })!.line.toString()).toStartWith("L0 AUTHENTICATE XOAUTH2 ");
  // The newest page behind the EXAMINE: only to a server seen before that is not Gmail, bounded.
  const prefetch = { items: "(UID FLAGS)", low: 981, span: 100 };
  expect(plan({ facts: clear, prefetch })?.prefetch?.toString()).toBe("F0 UID FETCH 981:1080 (UID FLAGS)");
  expect(plan({ facts: null, prefetch })?.prefetch).toBeNull();
  expect(plan({ facts: { ...clear, gmail: true }, prefetch })?.prefetch).toBeNull();
  expect(plan({ facts: clear, prefetch, examine: null })?.prefetch).toBeNull();
  expect(plan({ auth: token, facts: { ...clear, xoauth2: true }, prefetch })?.prefetch).toBeNull();
  expect(plan({ facts: clear, prefetch: { ...prefetch, low: 0 } })?.prefetch).toBeNull();
});

test("a wrong password fails the connect with LOGIN's error (the stored password rejected), not the EXAMINE's", async () => {
  const account = { ...bob(), auth: { kind: "password" as const, password: "not-the-password" } };
  const err = await connectImap(account, DEFAULT_TIMEOUTS, false, { memory: seen(account), examine: FOLDER }).then(() => null, (e: unknown) => e);
  expect((err as { authenticationFailed?: boolean }).authenticationFailed).toBe(true);
  const worded = toMailError(err, account, 1000);
  expect(worded).toBeInstanceOf(MailError);
  expect((worded as MailError).message).toContain("rejected the stored password");
}, 15_000);

test("a folder that does not exist: the connection still opens, and the read says which folders there are", async () => {
  const client = await connectImap(bob(), DEFAULT_TIMEOUTS, false, { memory: seen(), examine: "NoSuchFolder" });
  try {
    expect(client.usable).toBe(true);
    expect(client.mailbox).toBeFalsy();
    const err = await recent(client, "NoSuchFolder").then(() => null, (e: unknown) => e);
    expect(String((err as Error)?.message)).toContain("NoSuchFolder");
    expect((await recent(client)).emails.length).toBe(5);
  } finally {
    await client.logout();
  }
});

test("after a PREAUTH greeting (RFC 3501 §7.1.4) LOGIN's refusal is moot: the first read works on the authenticated connection", async () => {
  const fake = await startFakeImap(() => ({ preauth: true }));
  try {
    const account = testAccount(h.dovecot.users.bob, { host: fake.host, port: fake.port });
    const client = await connectImap(account, DEFAULT_TIMEOUTS, false, { memory: seen(account), examine: "INBOX" });
    expect((await recent(client, "INBOX")).emails.length).toBe(3);
    await client.logout();
  } finally {
    await fake.stop();
  }
});

test("a server that loses what was pipelined behind LOGIN: noted, the connection opened again the waited way, and not tried again", async () => {
  const fake = await startFakeImap(() => ({ loseAfterLogin: true }));
  try {
    const account = testAccount(h.dovecot.users.bob, { host: fake.host, port: fake.port });
    const memory = seen(account);
    const hints: OpenHints = { memory, examine: "INBOX", examineLostMs: 300 };
    const client = await connectImap(account, DEFAULT_TIMEOUTS, false, hints);
    expect((await recent(client, "INBOX")).emails.length).toBe(3);
    expect(fake.connections).toBe(2);
    expect(memory.get(serverKey(account.imap))?.examineLost).toBe(true);
    await client.logout();
    const again = await connectImap(account, DEFAULT_TIMEOUTS, false, hints);
    expect((await recent(again, "INBOX")).emails.length).toBe(3);
    expect(fake.connections).toBe(3); // no lost EXAMINE this time
    await again.logout();
  } finally {
    await fake.stop();
  }
});

test("the setup form's check (probeAfterLogin) still waits for LOGIN: a wrong password fails the connect", async () => {
  const account = { ...bob(), auth: { kind: "password" as const, password: "not-the-password" } };
  const err = await connectImap(account, DEFAULT_TIMEOUTS, true, { memory: seen(account) }).then(() => null, (e: unknown) => e);
  expect((err as { authenticationFailed?: boolean }).authenticationFailed).toBe(true);
}, 15_000);

describe("an access token (the oauth2 passdb, pointed at the fake provider)", () => {
  const tokenAccount = (token: string) => ({ ...bob(), auth: { kind: "oauth2" as const, accessToken: token, sasl: "xoauth2" as const } });

  test("the first connection learns the server's mechanisms; the next writes AUTHENTICATE before the greeting: the greeting's turn saved", async () => {
    const memory = new ServerMemory();
    memory.note(serverKey(bob().imap), { loginDisabled: false }); // LOGIN allowed, mechanisms not yet seen
    const account = tokenAccount(h.oauth.accessFor(h.dovecot.users.bob.email));
    relay.reset();
    const waited = await connectImap(account, DEFAULT_TIMEOUTS, false, { memory, examine: FOLDER });
    await recent(waited);
    const waitedTurns = relay.turns;
    await waited.logout();
    expect(memory.get(serverKey(bob().imap))).toMatchObject({ xoauth2: true, oauthbearer: true });
    relay.reset();
    const early = await connectImap(account, DEFAULT_TIMEOUTS, false, { memory, examine: FOLDER });
    try {
      expect((await recent(early)).emails[0]!.subject).toBe("Cold 8");
      expect(waitedTurns).toBe(4); // the greeting, AUTHENTICATE, EXAMINE, FETCH
      expect(relay.turns).toBe(3); // AUTHENTICATE with the connection, EXAMINE, FETCH
      expect(early.capabilities.has("CONDSTORE")).toBe(true);
    } finally {
      await early.logout();
    }
  });

  test("a refused token is not tried again the waited way, even where the greeting disables LOGIN (that fallback is LOGIN's)", async () => {
    const fake = await startFakeImap(() => ({ greetingCaps: "IMAP4rev1 LOGINDISABLED AUTH=XOAUTH2" }));
    try {
      const account = { ...tokenAccount("at-any"), imap: { host: fake.host, port: fake.port, security: "none" as const } };
      const memory = new ServerMemory();
      memory.note(serverKey(account.imap), { loginDisabled: false, xoauth2: true });
      const err = await connectImap(account, DEFAULT_TIMEOUTS, false, { memory }).then(() => null, (e: unknown) => e);
      expect((err as { authenticationFailed?: boolean }).authenticationFailed).toBe(true);
      expect(fake.received.AUTHENTICATE).toBe(1);
    } finally {
      await fake.stop();
    }
  });

  test("a token the provider no longer accepts: the refusal's continuation is answered and the connect fails as an auth error, in one turn", async () => {
    const memory = seen();
    memory.note(serverKey(bob().imap), { xoauth2: true, oauthbearer: true });
    const account = tokenAccount("at-not-a-live-token");
    const t = performance.now();
    const err = await connectImap(account, DEFAULT_TIMEOUTS, false, { memory, examine: FOLDER }).then(() => null, (e: unknown) => e);
    expect((err as { authenticationFailed?: boolean }).authenticationFailed).toBe(true);
    expect(performance.now() - t).toBeLessThan(DEFAULT_TIMEOUTS.connectTimeoutMs / 2); // not left waiting for the connect timeout
    expect((toMailError(err, account, 1000) as MailError).kind).toBe("auth");
  }, 15_000);
});
