// verifyLogin against the harness Dovecot and against sockets that misbehave.
import { afterAll, describe, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import { type MailAccount, type Security } from "../../src/mail/account.ts";
import { MailError } from "../../src/mail/errors.ts";
import { verifyLogin } from "../../src/mail/imap/verify.ts";
import { freePort } from "../support/dovecot.ts";
import { getHarness } from "../support/harness.ts";

async function alice(overrides: Partial<MailAccount> = {}, security: Security = "none"): Promise<MailAccount> {
  const h = await getHarness();
  const u = h.dovecot.users.alice;
  return {
    provider: "custom", email: u.email, username: u.user, auth: { kind: "password", password: u.pass },
    imap: { host: h.dovecot.host, port: h.dovecot.port, security },
    smtp: { host: h.smtp.host, port: h.smtp.port, security: "none" },
    providerSavesSent: false, ...overrides,
  };
}

async function failure(p: Promise<unknown>): Promise<MailError> {
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

/** A loopback listener that does `onConnection` with every socket it accepts; its port. */
function listener(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    socket.on("error", () => {});
    onConnection(socket);
  });
  servers.push(server);
  return new Promise((r) => server.listen(0, "127.0.0.1", () => r((server.address() as { port: number }).port)));
}

/** Port states a visitor could probe through the setup form. */
const portStates = {
  refusing: () => freePort(),
  silent: () => listener(() => {}),
  "plain non-IMAP banner": () => listener((s) => s.write("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")),
  "accepts then hangs up": () => listener((s) => s.end()),
  "HTTP, waits for a request": () => listener((s) => s.once("data", () => s.end("HTTP/1.1 400 Bad Request\r\n\r\n"))),
};

describe("verifyLogin (live IMAP)", () => {
  test("right password: resolves", async () => {
    await verifyLogin(await alice());
  });

  test("wrong password: kind auth, message without the password", async () => {
    const account = await alice({ auth: { kind: "password", password: "wrong-Secret-xyz" } });
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
    expect(err.message).toContain("Check the host name.");
  });

  test("a preset's host that does not resolve points at DNS and the network, not at the name", async () => {
    const account = await alice({ provider: "fastmail" });
    const err = await failure(verifyLogin({ ...account, imap: { host: "no-such-host.invalid", port: 993, security: "tls" } }));
    expect(err.kind).toBe("unreachable");
    expect(err.message).toContain("no-such-host.invalid");
    expect(err.message).not.toContain("host name");
    expect(err.message).toContain("DNS resolver and internet access");
  });
});

describe("verifyLogin: the setup form does not tell port states apart (issue 10 item 12)", () => {
  const BUDGET = 400;

  async function attempt(port: number, security: Security, uniformTiming = false) {
    const account = await alice();
    const started = performance.now();
    const err = await failure(verifyLogin({ ...account, imap: { host: "localhost", port, security } }, { timeoutMs: BUDGET, uniformTiming }));
    return { err, ms: performance.now() - started, text: err.message.replace(`localhost:${port}`, "HOST:PORT") };
  }

  test.each(["none", "starttls"] as const)("refused, silent, non-IMAP and hung-up ports give one message (security %s)", async (security) => {
    const results = await Promise.all(Object.entries(portStates).map(async ([state, open]) => [state, await attempt(await open(), security)] as const));
    const texts = new Set(results.map(([, r]) => r.text));
    expect([...texts]).toEqual(["The mail server HOST:PORT could not be reached or did not answer within 1 second. Check the host, port and security, then try again."]);
    for (const [, r] of results) expect(["unreachable", "timeout"]).toContain(r.err.kind);
  });

  test("with uniform timing a refused port answers at the end of the budget, like a silent one", async () => {
    const refused = await attempt(await freePort(), "tls", true);
    const silent = await attempt(await portStates.silent(), "tls", true);
    expect(refused.text).toBe(silent.text);
    expect(refused.ms).toBeGreaterThanOrEqual(BUDGET - 5);
    expect(silent.ms).toBeGreaterThanOrEqual(BUDGET - 5);
  });

  test("uniform timing is the default for accounts whose hosts must be public", async () => {
    const account = { ...(await alice()), requirePublicHosts: true, imap: { host: "no-such-host.invalid", port: 993, security: "tls" as const } };
    const started = performance.now();
    const err = await failure(verifyLogin(account, { timeoutMs: BUDGET }));
    expect(err.kind).toBe("unreachable");
    expect(performance.now() - started).toBeGreaterThanOrEqual(BUDGET - 5);
  });

  test.each([
    ["a plain non-IMAP banner", () => portStates["plain non-IMAP banner"]()],
    ["an HTTP server", () => portStates["HTTP, waits for a request"]()],
    ["a port that hangs up", () => portStates["accepts then hangs up"]()],
    ["a plain-text IMAP server", async () => (await getHarness()).dovecot.port],
  ])("TLS spoken to %s: a TLS error saying the port does not speak TLS", async (_what, open) => {
    const { err } = await attempt(await open(), "tls");
    expect(err.kind).toBe("tls");
    expect(err.message).toContain("does not speak TLS on this port");
  });
});

