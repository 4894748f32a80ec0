import { describe, expect, test } from "bun:test";
import { checkHost, connectTarget, isLocalAddress, isPublicAddress } from "../../src/mail/net/host-policy.ts";
import { MailError } from "../../src/mail/errors.ts";
import { getHarness } from "../support/harness.ts";
import { testAccount } from "../support/token.ts";

describe("checkHost: every address the host stands for must pass", () => {
  test("a name is refused if any of its addresses is private", async () => {
    const resolve = async (h: string) => (h === "mixed.test" ? ["8.8.8.8", "10.1.1.1"] : ["8.8.4.4"]);
    expect(await checkHost("mixed.test", isPublicAddress, resolve)).toEqual({ ok: false, reason: "refused" });
    expect(await checkHost("public.test", isPublicAddress, resolve)).toEqual({ ok: true });
  });

  test("IP literals are checked without DNS; a failed lookup is unresolvable", async () => {
    const fail = async () => { throw new Error("ENOTFOUND"); };
    expect(await checkHost("127.0.0.1", isPublicAddress, fail)).toEqual({ ok: false, reason: "refused" });
    expect(await checkHost("[::1]", isPublicAddress, fail)).toEqual({ ok: false, reason: "refused" });
    expect(await checkHost("[2002:808:808::1]", isPublicAddress, fail)).toEqual({ ok: false, reason: "refused" });
    expect(await checkHost("[::ffff:0:808:808]", isPublicAddress, fail)).toEqual({ ok: false, reason: "refused" });
    expect(await checkHost("nowhere.invalid", isPublicAddress, fail)).toEqual({ ok: false, reason: "unresolvable" });
  });

  test("the real resolver: localhost and the shorthand 127.1 are loopback", async () => {
    expect(await checkHost("localhost", isPublicAddress)).toEqual({ ok: false, reason: "refused" });
    expect(await checkHost("127.1", isPublicAddress)).toEqual({ ok: false, reason: "refused" });
    expect(await checkHost("localhost", isLocalAddress)).toEqual({ ok: true });
  });

  test("plain text: only a host whose every address is private or loopback", async () => {
    const resolve = async (h: string) => ({ "lan.test": ["192.168.1.5", "fd00::5"], "split.test": ["192.168.1.5", "8.8.8.8"] })[h] ?? ["8.8.8.8"];
    expect(await checkHost("lan.test", isLocalAddress, resolve)).toEqual({ ok: true });
    expect(await checkHost("split.test", isLocalAddress, resolve)).toEqual({ ok: false, reason: "refused" });
    expect(await checkHost("mail.example.com", isLocalAddress, resolve)).toEqual({ ok: false, reason: "refused" });
    // Link-local and shared (CGNAT) space is not the operator's own network.
    expect(await checkHost("169.254.1.1", isLocalAddress, resolve)).toEqual({ ok: false, reason: "refused" });
    expect(await checkHost("100.64.0.1", isLocalAddress, resolve)).toEqual({ ok: false, reason: "refused" });
  });
});

describe("connectTarget: resolve, check and pin before every connection (DNS rebinding)", () => {
  const resolver = (answers: string[]) => async () => answers;
  const tls = (host: string) => ({ host, security: "tls" as const });
  const plain = (host: string) => ({ host, security: "none" as const });

  test("a public name connects to the checked address and keeps the name for TLS", async () => {
    expect(await connectTarget(tls("mail.example.com"), true, resolver(["93.184.215.14"])))
      .toEqual({ host: "93.184.215.14", servername: "mail.example.com" });
  });

  test("a name that now answers a private or special-purpose address is refused at connection time", async () => {
    for (const answers of [["93.184.215.14", "127.0.0.1"], ["2002:7f00:1::1"], ["2001:0:4136:e378::1"], ["fec0::1"], ["192.0.2.1"]]) {
      const err = await connectTarget(tls("rebind.example.com"), true, resolver(answers)).catch((e) => e);
      expect(err).toBeInstanceOf(MailError);
      expect(err.kind).toBe("invalid");
      expect(err.message).toContain("private network");
    }
  });

  test("unresolvable is unreachable; an IP literal is used as is; no pinning when not required", async () => {
    expect((await connectTarget(tls("gone.example.com"), true, resolver([])).catch((e) => e)).kind).toBe("unreachable");
    expect(await connectTarget(tls("8.8.8.8"), true)).toEqual({ host: "8.8.8.8" });
    expect(await connectTarget(tls("localhost"), false)).toEqual({ host: "localhost" });
  });

  test("plain text (security none) is pinned to a local address even where private hosts are allowed", async () => {
    expect(await connectTarget(plain("mail.lan"), false, resolver(["192.168.1.5"])))
      .toEqual({ host: "192.168.1.5", servername: "mail.lan" });
    expect(await connectTarget(plain("127.0.0.1"), false)).toEqual({ host: "127.0.0.1" });
    for (const answers of [["8.8.8.8"], ["192.168.1.5", "8.8.8.8"], ["100.64.0.9"]]) {
      const err = await connectTarget(plain("mail.lan"), false, resolver(answers)).catch((e) => e);
      expect(err).toBeInstanceOf(MailError);
      expect(err.kind).toBe("invalid");
      expect(err.message).toContain("in clear");
    }
    // Public required and plain text: nothing passes both rules.
    expect((await connectTarget(plain("8.8.8.8"), true).catch((e) => e)).kind).toBe("invalid");
  });
});

describe("the pool and SMTP re-check custom hosts on every new connection", () => {
  test("an account that requires public hosts cannot open IMAP or SMTP to localhost", async () => {
    const { openImap, imapOptions, DEFAULT_TIMEOUTS } = await import("../../src/mail/imap/connect.ts");
    const { SmtpPool } = await import("../../src/mail/smtp/pool.ts");
    const smtp = new SmtpPool();
    const h = await getHarness();
    const account = { ...testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port), requirePublicHosts: true };
    const imapErr = await openImap(account).catch((e) => e);
    expect(imapErr).toBeInstanceOf(MailError);
    expect(imapErr.message).toContain("private network");
    const smtpErr = await smtp.send("pin-test", account, { messageId: "<x@y>", raw: Buffer.from("x"), envelope: { from: "a@b.c", to: ["b@c.d"] } }).then(() => null, (e: unknown) => e as MailError);
    expect(smtpErr).toBeInstanceOf(MailError);
    expect(smtpErr?.message).toContain("private network");
    expect(h.smtp.messages.some((m) => m.raw.toString() === "x")).toBe(false);
    // And the options carry the checked address plus the name TLS verifies.
    const opts = imapOptions(account, DEFAULT_TIMEOUTS, { host: "203.0.113.7", servername: "mail.example.com" });
    expect(opts).toMatchObject({ host: "203.0.113.7", servername: "mail.example.com" });
  });
});

describe("plain text goes only to the operator's own network, on every connection (IMAP and SMTP)", () => {
  test("an account with security none towards a public address cannot open IMAP or SMTP, private hosts allowed or not", async () => {
    const { openImap } = await import("../../src/mail/imap/connect.ts");
    const { SmtpPool } = await import("../../src/mail/smtp/pool.ts");
    const smtp = new SmtpPool();
    const h = await getHarness();
    const base = testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port); // security none, no public rule
    // 192.0.2.x would be refused as documentation space; a global address is what this rule is about.
    // Refused before any socket is opened: nothing is sent to 8.8.8.8.
    const imapErr = await openImap({ ...base, imap: { ...base.imap, host: "8.8.8.8" } }).catch((e) => e);
    expect(imapErr).toBeInstanceOf(MailError);
    expect(imapErr.message).toContain("in clear");
    const smtpErr = await smtp.send("plain-test", { ...base, smtp: { ...base.smtp, host: "8.8.8.8" } },
      { messageId: "<x@y>", raw: Buffer.from("x"), envelope: { from: "a@b.c", to: ["b@c.d"] } }).then(() => null, (e: unknown) => e as MailError);
    expect(smtpErr).toBeInstanceOf(MailError);
    expect(smtpErr?.message).toContain("in clear");
  });
});
