// SmtpPool against the harness SMTP server: reuse of the per-token transport, and every refusal
// mapped to a MailError that names the cause.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { parseAllRecipients } from "../../src/mail/compose/recipients.ts";
import { composeMessage } from "../../src/mail/compose/message.ts";
import { SmtpPool } from "../../src/mail/smtp/pool.ts";
import { smtpError } from "../../src/mail/smtp/errors.ts";
import { type MailAccount } from "../../src/mail/account.ts";
import { MailError } from "../../src/mail/errors.ts";
import { getHarness, type Harness } from "../support/harness.ts";

let h: Harness;
let alice: MailAccount;
const TOKEN = "smtp-test-token";
const pool = new SmtpPool();
const send = pool.send.bind(pool);

beforeAll(async () => {
  h = await getHarness();
  const u = h.dovecot.users.alice;
  const endpoint = (port: number) => ({ host: "localhost", port, security: "none" as const });
  alice = { provider: "custom", email: u.email, username: u.user, auth: { kind: "password", password: u.pass }, imap: endpoint(h.dovecot.port), smtp: endpoint(h.smtp.port), providerSavesSent: false };
}, 20_000);
afterEach(() => {
  h.smtp.rejectRecipients.clear();
  h.smtp.failNext = undefined;
});
afterAll(() => pool.closeAll());

async function message(to: string | string[], subject = `smtp-test ${crypto.randomUUID()}`) {
  const m = await composeMessage({ from: alice.email, recipients: parseAllRecipients({ to }), subject, text: "hello" });
  return { messageId: m.messageId, raw: m.wire, envelope: m.envelope };
}

async function rejection(p: Promise<unknown>): Promise<MailError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(MailError);
  return err as MailError;
}

describe("SmtpPool.send", () => {
  test("sends, reports accepted/rejected, and reuses one transport per token until closed", async () => {
    const before = h.smtp.messages.length;
    h.smtp.rejectRecipients.add("nobody@example.test");
    const msg = await message(["bob@example.test", "nobody@example.test"]);
    const res = await send(TOKEN, alice, msg);
    expect(res).toEqual({ messageId: msg.messageId, accepted: ["bob@example.test"], rejected: ["nobody@example.test"] });
    await send(TOKEN, alice, await message("bob@example.test"));
    expect(pool.size).toBe(1);
    expect(h.smtp.messages.length).toBe(before + 2);
    const last = h.smtp.messages.at(-1)!;
    expect(last.user).toBe(alice.email);
    expect(last.from).toBe(alice.email);
    pool.closeToken(TOKEN);
    expect(pool.size).toBe(0); // revocation closes the transport: nothing stays behind
  });

  test("a wrong password is an auth error", async () => {
    const err = await rejection(send("smtp-bad-pw", { ...alice, auth: { kind: "password", password: "wrong" } }, await message("bob@example.test")));
    expect(err.kind).toBe("auth");
    expect(err.message).toMatch(/refused the login.*reconnect/);
    expect(pool.size).toBe(0); // the failed transport is not kept
  });

  test("every recipient refused: an invalid error naming them", async () => {
    h.smtp.rejectRecipients.add("ghost@example.test");
    const err = await rejection(send(TOKEN, alice, await message("ghost@example.test")));
    expect(err.kind).toBe("invalid");
    expect(err.message).toContain("ghost@example.test");
    expect(err.message).toContain("550");
  });

  test("552 at DATA: too large; 451 at MAIL: temporary", async () => {
    h.smtp.failNext = { code: 552, message: "5.3.4 Message size exceeds fixed limit", at: "data" };
    expect((await rejection(send(TOKEN, alice, await message("bob@example.test")))).message).toMatch(/too large/);
    h.smtp.failNext = { code: 451, message: "4.3.0 try later" };
    expect((await rejection(send(TOKEN, alice, await message("bob@example.test")))).message).toMatch(/temporarily/);
    // the pooled connection survives refusals and keeps working
    expect((await send(TOKEN, alice, await message("bob@example.test"))).accepted).toEqual(["bob@example.test"]);
  });

  test("an unreachable server is `unreachable`", async () => {
    const dead = { ...alice, smtp: { ...alice.smtp, port: 1 } };
    const err = await rejection(send("smtp-dead", dead, await message("bob@example.test")));
    expect(err.kind).toBe("unreachable");
    expect(err.message).toContain("localhost:1");
  });

  test("a send that comes after the token's revocation is refused before any byte goes out", async () => {
    const before = { data: h.smtp.dataCommands.length, messages: h.smtp.messages.length };
    const others = pool.size;
    await send("smtp-revoked", alice, await message("bob@example.test")); // a live transport to revoke
    pool.revoke("smtp-revoked");
    expect(pool.size).toBe(others);
    const err = await rejection(send("smtp-revoked", alice, await message("bob@example.test")));
    expect(err.kind).toBe("auth");
    expect(err.message).toMatch(/revoked.*not sent/);
    expect(pool.size).toBe(others); // no transport was made for it
    expect(h.smtp.dataCommands.length).toBe(before.data + 1);
    expect(h.smtp.messages.length).toBe(before.messages + 1);
    // Another token is untouched.
    expect((await send(TOKEN, alice, await message("bob@example.test"))).accepted).toEqual(["bob@example.test"]);
  });

  test("timeouts and TLS failures are named", () => {
    expect(smtpError(Object.assign(new Error("Greeting never received"), { code: "ETIMEDOUT" }), alice).kind).toBe("timeout");
    expect(smtpError(Object.assign(new Error("wrong version number"), { code: "ETLS" }), alice).kind).toBe("tls");
  });
});
