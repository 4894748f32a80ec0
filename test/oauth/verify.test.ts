// verifyLogin against the harness Dovecot and against sockets that misbehave.
import { afterAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { MailError, type MailAccount, type Security } from "../../src/mail/types.ts";
import { verifyLogin } from "../../src/mail/verify.ts";
import { freePort } from "../support/dovecot.ts";
import { getHarness } from "../support/harness.ts";

async function alice(overrides: Partial<MailAccount> = {}, security: Security = "none"): Promise<MailAccount> {
  const h = await getHarness();
  const u = h.dovecot.users.alice;
  return {
    provider: "custom", email: u.email, username: u.user, password: u.pass,
    imap: { host: h.dovecot.host, port: h.dovecot.port, security },
    smtp: { host: h.smtp.host, port: h.smtp.port, security: "none" },
    providerSavesSent: false, ...overrides,
  };
}

async function failure(p: Promise<void>): Promise<MailError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof MailError) return err;
    throw err;
  }
  throw new Error("verifyLogin succeeded");
}

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

describe("verifyLogin (live IMAP)", () => {
  test("right password: resolves", async () => {
    await verifyLogin(await alice());
  });

  test("wrong password: kind auth, message without the password", async () => {
    const account = await alice({ password: "wrong-Secret-xyz" });
    const err = await failure(verifyLogin(account));
    expect(err.kind).toBe("auth");
    expect(err.message).toMatch(/rejected/);
    expect(err.message).not.toContain("wrong-Secret-xyz");
  });

  test("nothing listening: kind unreachable", async () => {
    const port = await freePort();
    const account = await alice();
    const err = await failure(verifyLogin({ ...account, imap: { host: "localhost", port, security: "none" } }));
    expect(err.kind).toBe("unreachable");
    expect(err.message).toContain(`localhost:${port}`);
  });

  test("implicit TLS against a plain-text server: kind tls", async () => {
    const err = await failure(verifyLogin(await alice({}, "tls"), { timeoutMs: 5000 }));
    expect(err.kind).toBe("tls");
  });

  test("STARTTLS required but not offered: kind tls", async () => {
    const err = await failure(verifyLogin(await alice({}, "starttls"), { timeoutMs: 5000 }));
    expect(err.kind).toBe("tls");
  });

  test("a server that never greets: kind timeout within the budget", async () => {
    const silent = createServer(() => {});
    servers.push(silent);
    const port = await new Promise<number>((r) => silent.listen(0, "127.0.0.1", () => r((silent.address() as { port: number }).port)));
    const account = await alice();
    const started = Date.now();
    const err = await failure(verifyLogin({ ...account, imap: { host: "localhost", port, security: "none" } }, { timeoutMs: 400 }));
    expect(err.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test("an unknown host name: kind unreachable naming the host", async () => {
    const account = await alice();
    const err = await failure(verifyLogin({ ...account, imap: { host: "no-such-host.invalid", port: 993, security: "tls" } }));
    expect(err.kind).toBe("unreachable");
    expect(err.message).toContain("no-such-host.invalid");
  });
});
