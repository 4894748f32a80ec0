import { describe, expect, test } from "bun:test";
import { checkPublicHost, connectTarget, isPrivateAddress } from "../../src/mail/public-hosts.ts";
import { MailError } from "../../src/mail/types.ts";
import { getHarness } from "../support/harness.ts";
import { testAccount } from "../support/token.ts";

describe("private host refusal", () => {
  test.each([
    "127.0.0.1", "127.1.2.3", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
    "::1", "::", "fe80::1", "fd00::1", "fc00::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:7f00:1",
    "64:ff9b::10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a00:1", "::7f00:1", "not-an-ip",
  ])("%s is private", (a) => expect(isPrivateAddress(a)).toBe(true));

  test.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "64:ff9b::808:808"])(
    "%s is public", (a) => expect(isPrivateAddress(a)).toBe(false));

  test("a name is refused if any of its addresses is private", async () => {
    const resolve = async (h: string) => (h === "mixed.test" ? ["8.8.8.8", "10.1.1.1"] : ["8.8.4.4"]);
    expect(await checkPublicHost("mixed.test", resolve)).toEqual({ ok: false, reason: "private" });
    expect(await checkPublicHost("public.test", resolve)).toEqual({ ok: true });
  });

  test("IP literals are checked without DNS; a failed lookup is unresolvable", async () => {
    const fail = async () => { throw new Error("ENOTFOUND"); };
    expect(await checkPublicHost("127.0.0.1", fail)).toEqual({ ok: false, reason: "private" });
    expect(await checkPublicHost("[::1]", fail)).toEqual({ ok: false, reason: "private" });
    expect(await checkPublicHost("nowhere.invalid", fail)).toEqual({ ok: false, reason: "unresolvable" });
  });

  test("the real resolver: localhost is private", async () => {
    expect(await checkPublicHost("localhost")).toEqual({ ok: false, reason: "private" });
  });
});

describe("connectTarget: resolve, check and pin before every connection (DNS rebinding)", () => {
  const resolver = (answers: string[]) => async () => answers;

  test("a public name connects to the checked address and keeps the name for TLS", async () => {
    expect(await connectTarget("mail.example.com", true, resolver(["203.0.113.7"])))
      .toEqual({ host: "203.0.113.7", servername: "mail.example.com" });
  });

  test("a name that now answers a private address is refused at connection time", async () => {
    const err = await connectTarget("rebind.example.com", true, resolver(["93.184.216.34", "127.0.0.1"])).catch((e) => e);
    expect(err).toBeInstanceOf(MailError);
    expect(err.kind).toBe("invalid");
    expect(err.message).toContain("private network");
  });

  test("unresolvable is unreachable; an IP literal is used as is; no pinning when not required", async () => {
    expect((await connectTarget("gone.example.com", true, resolver([])).catch((e) => e)).kind).toBe("unreachable");
    expect(await connectTarget("203.0.113.9", true)).toEqual({ host: "203.0.113.9" });
    expect(await connectTarget("localhost", false)).toEqual({ host: "localhost" });
  });
});

describe("the pool and SMTP re-check custom hosts on every new connection", () => {
  test("an account that requires public hosts cannot open IMAP or SMTP to localhost", async () => {
    const { openImap, imapOptions, DEFAULT_TIMEOUTS } = await import("../../src/mail/imap-connect.ts");
    const { sendRaw } = await import("../../src/mail/smtp.ts");
    const h = await getHarness();
    const account = { ...testAccount(h.dovecot.users.alice, h.dovecot, h.smtp.port), requirePublicHosts: true };
    const imapErr = await openImap(account).catch((e) => e);
    expect(imapErr).toBeInstanceOf(MailError);
    expect(imapErr.message).toContain("private network");
    const smtpErr = await sendRaw("pin-test", account, { messageId: "<x@y>", raw: Buffer.from("x"), envelope: { from: "a@b.c", to: ["b@c.d"] } }).catch((e) => e);
    expect(smtpErr).toBeInstanceOf(MailError);
    expect(smtpErr.message).toContain("private network");
    expect(h.smtp.messages.some((m) => m.raw.toString() === "x")).toBe(false);
    // And the options carry the checked address plus the name TLS verifies.
    const opts = imapOptions(account, DEFAULT_TIMEOUTS, { host: "203.0.113.7", servername: "mail.example.com" });
    expect(opts).toMatchObject({ host: "203.0.113.7", servername: "mail.example.com" });
  });
});
