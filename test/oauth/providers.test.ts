import { describe, expect, test } from "bun:test";
import { findProvider, PROVIDERS } from "../../src/mail/providers/presets.ts";

describe("provider presets", () => {
  test("the docs/design.md §5 list, in order", () => {
    expect(PROVIDERS.map((p) => p.id)).toEqual([
      "gmail", "outlook", "yahoo", "icloud", "fastmail", "zoho", "aol", "gmx", "yandex", "mailbox.org", "posteo", "custom",
    ]);
  });

  test("every preset has real endpoints and an https help link; custom has none", () => {
    for (const p of PROVIDERS) {
      expect(Object.keys(p).sort()).toEqual(["app_password_url", "id", "imap", "name", "notes", "saves_sent", "smtp"]);
      if (p.id === "custom") {
        expect(p.imap.host).toBeNull();
        expect(p.smtp.host).toBeNull();
        continue;
      }
      expect(p.imap.host).toMatch(/^[a-z0-9.-]+\.[a-z]+$/);
      expect(p.smtp.host).toMatch(/^[a-z0-9.-]+\.[a-z]+$/);
      expect(p.imap).toMatchObject({ port: 993, security: "tls" });
      expect([465, 587]).toContain(p.smtp.port);
      expect(p.smtp.security).toBe(p.smtp.port === 465 ? "tls" : "starttls");
      if (p.app_password_url !== null) expect(p.app_password_url).toStartWith("https://");
    }
  });

  test("well-known hosts", () => {
    expect(findProvider("gmail")).toMatchObject({ imap: { host: "imap.gmail.com" }, smtp: { host: "smtp.gmail.com", port: 465 }, saves_sent: true });
    expect(findProvider("outlook")).toMatchObject({ imap: { host: "outlook.office365.com" }, smtp: { host: "smtp.office365.com", port: 587 } });
    expect(findProvider("outlook")!.notes).toMatch(/app passwords/);
    expect(findProvider("icloud")).toMatchObject({ smtp: { host: "smtp.mail.me.com", port: 587, security: "starttls" } });
    expect(findProvider("posteo")).toMatchObject({ imap: { host: "posteo.de" }, smtp: { host: "posteo.de", port: 465 } });
    expect(findProvider("nope")).toBeUndefined();
  });
});
