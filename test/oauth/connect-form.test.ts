import { describe, expect, test } from "bun:test";
import { parseConnectFields } from "../../src/oauth/setup/connect-form.ts";

const custom = {
  provider: "custom", email: "me@example.org", password: "pw with spaces ",
  imap_host: "mail.example.org", imap_port: "993", imap_security: "tls",
  smtp_host: "smtp.example.org", smtp_port: "587", smtp_security: "starttls",
};

describe("setup form fields → MailAccount", () => {
  test("a preset takes its endpoints and saves_sent from the provider", () => {
    const r = parseConnectFields({ provider: "gmail", email: " me@gmail.com ", password: "abcd efgh ijkl mnop" });
    expect(r).toEqual({
      ok: true,
      account: {
        provider: "gmail", email: "me@gmail.com", username: "me@gmail.com", auth: { kind: "password", password: "abcd efgh ijkl mnop" },
        imap: { host: "imap.gmail.com", port: 993, security: "tls" },
        smtp: { host: "smtp.gmail.com", port: 465, security: "tls" },
        providerSavesSent: true,
      },
    });
  });

  test("a control character in the email or login name: refused with the reason (a line break, NUL, bidi override)", () => {
    for (const f of [{ email: "me@example.org\r\n" }, { email: "m\u0000e@example.org" }, { email: "me\u202e@example.org" }, { username: "me\u001b[2J" }]) {
      const r = parseConnectFields({ ...custom, ...f });
      expect(r).toEqual({ ok: false, message: expect.stringContaining("contains a control character") });
    }
    expect(parseConnectFields({ ...custom, username: "me" }).ok).toBe(true);
  });

  test("custom: hosts, ports, security and an optional login name; password verbatim", () => {
    const r = parseConnectFields({ ...custom, username: "me" });
    if (!r.ok) throw new Error(r.message);
    expect(r.account.imap).toEqual({ host: "mail.example.org", port: 993, security: "tls" });
    expect(r.account.smtp).toEqual({ host: "smtp.example.org", port: 587, security: "starttls" });
    expect(r.account.username).toBe("me");
    expect(r.account.auth).toEqual({ kind: "password", password: "pw with spaces " });
    expect(r.account.providerSavesSent).toBe(false);
  });

  test.each([
    [{ ...custom, provider: "" }, /provider/],
    [{ ...custom, provider: "hotmail" }, /provider/],
    [{ ...custom, email: "not-an-address" }, /email address/],
    [{ ...custom, password: "" }, /app password/],
    [{ ...custom, imap_host: "" }, /IMAP server's host/],
    [{ ...custom, imap_host: "https://mail.example.org" }, /IMAP server's host/],
    [{ ...custom, imap_port: "99999" }, /IMAP port/],
    [{ ...custom, imap_port: "12a" }, /IMAP port/],
    [{ ...custom, imap_security: "ssl" }, /IMAP security/],
    [{ ...custom, smtp_host: "bad host" }, /SMTP server's host/],
    [{ ...custom, smtp_security: undefined }, /SMTP security/],
  ])("refused with a message: %#", (fields, message) => {
    const r = parseConnectFields(fields);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });
});
