// The first call on a cold pooled connection (issue 42: at most 3.5 round trips): LOGIN goes out in
// one turn with the call's first command (src/mail/imap/deferred-login.ts), so greeting, LOGIN +
// EXAMINE, FETCH is two client turns where waiting for LOGIN made three. A wrong password still
// fails the call with LOGIN's own error, worded as before; the setup form's check still waits.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { tracking } from "../../src/mail/imap/client.ts";
import { connectImap, DEFAULT_TIMEOUTS } from "../../src/mail/imap/connect.ts";
import { toMailError } from "../../src/mail/imap/errors.ts";
import { MailError } from "../../src/mail/errors.ts";
import { recentEmails } from "../../src/mail/read/recent.ts";
import { startFakeImap } from "../support/fake-imap.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import * as fx from "../support/mail-fixtures.ts";
import { testAccount } from "../support/token.ts";
import { startTurnCounter, type TurnCounter } from "../support/turn-counter.ts";

const FOLDER = "ColdLogin";
let h: Harness;
let relay: TurnCounter;
const recent = (client: Awaited<ReturnType<typeof connectImap>>) =>
  recentEmails(client, { folder: FOLDER, limit: 5, beforeUid: null, unreadOnly: false });

beforeAll(async () => {
  h = await getHarness();
  await h.dovecot.seedBulk("bob", FOLDER, 8, (i) => fx.plainText({ subject: `Cold ${i + 1}` }));
  relay = await startTurnCounter({ host: "127.0.0.1", port: h.dovecot.port });
}, 30_000);
afterAll(() => relay?.stop());

const bob = () => testAccount(h.dovecot.users.bob, { host: "127.0.0.1", port: relay.port });

test("a cold pooled connection's first read: two client turns (LOGIN + EXAMINE, then FETCH), the answer and the view as before", async () => {
  relay.reset();
  const client = await connectImap(bob(), DEFAULT_TIMEOUTS, false);
  try {
    const page = await recent(client);
    expect(relay.turns).toBe(2);
    expect(page.emails.map((e) => e.subject)).toEqual(["Cold 8", "Cold 7", "Cold 6", "Cold 5", "Cold 4"]);
    expect(tracking(client)?.selects).toBe(1);
    expect(client.capabilities.has("CONDSTORE")).toBe(true); // the post-login list, from LOGIN's OK
    relay.reset();
    await recent(client); // warm: no LOGIN again
    expect(relay.turns).toBeLessThanOrEqual(2);
  } finally {
    await client.logout();
  }
});

test("a wrong password fails the first call with LOGIN's error (the stored password rejected), and closes the connection", async () => {
  const account = { ...bob(), auth: { kind: "password" as const, password: "not-the-password" } };
  const client = await connectImap(account, DEFAULT_TIMEOUTS, false);
  const err = await recent(client).then(() => null, (e: unknown) => e);
  expect((err as { authenticationFailed?: boolean }).authenticationFailed).toBe(true);
  const worded = toMailError(err, account, 1000);
  expect(worded).toBeInstanceOf(MailError);
  expect((worded as MailError).message).toContain("rejected the stored password");
  expect(client.usable).toBe(false);
});

test("the setup form's check (probeAfterLogin) still waits for LOGIN: a wrong password fails the connect", async () => {
  const account = { ...bob(), auth: { kind: "password" as const, password: "not-the-password" } };
  const err = await connectImap(account, DEFAULT_TIMEOUTS, true).then(() => null, (e: unknown) => e);
  expect((err as { authenticationFailed?: boolean }).authenticationFailed).toBe(true);
});

test("after a PREAUTH greeting (RFC 3501 §7.1.4) no LOGIN is sent: the first read works on the already authenticated connection", async () => {
  const fake = await startFakeImap(() => ({ preauth: true }));
  try {
    const client = await connectImap(testAccount(h.dovecot.users.bob, { host: fake.host, port: fake.port }), DEFAULT_TIMEOUTS, false);
    const page = await recentEmails(client, { folder: "INBOX", limit: 5, beforeUid: null, unreadOnly: false });
    expect(page.emails.length).toBe(3);
    expect(fake.received.LOGIN ?? 0).toBe(0);
    await client.logout();
  } finally {
    await fake.stop();
  }
});
