import { describe, expect, test } from "bun:test";
import { senderCheck } from "../../../../src/mail/read/sender/sender-check.ts";
import { unsubscribeOffer } from "../../../../src/mail/read/sender/unsubscribe-header.ts";
import { nameHoldsOtherAddress, senderWarnings } from "../../../../src/mail/read/sender/warnings.ts";

const block = (...ars: string[]) => Buffer.from(ars.map((v) => `Authentication-Results: ${v}\r\n`).join("") + "\r\n");
const GOOGLE = ["mx.google.com"];

describe("sender_check from the topmost trusted Authentication-Results", () => {
  test("gmail's header read: verdicts, from domain, alignment", () => {
    const b = block("mx.google.com;\r\n       dkim=pass header.i=@example.com header.s=s1 header.b=abc;\r\n       spf=pass (google.com: domain of a@example.com designates 1.2.3.4) smtp.mailfrom=a@example.com;\r\n       dmarc=pass (p=REJECT) header.from=example.com");
    expect(senderCheck(b, "a@example.com", GOOGLE)).toEqual({ spf: "pass", dkim: "pass", dmarc: "pass", from_domain: "example.com", aligned: true });
  });

  test("a forged pass lower in the block never shows: the provider's fail on top wins", () => {
    const b = block("mx.google.com; dmarc=fail header.from=paypal.com; spf=fail smtp.mailfrom=x@evil.example", "mx.google.com; dmarc=pass; spf=pass; dkim=pass header.d=paypal.com");
    const c = senderCheck(b, "service@paypal.com", GOOGLE)!;
    expect(c.dmarc).toBe("fail");
    expect(c.spf).toBe("fail");
    expect(c.dkim).toBeNull(); // the second mx.google.com header is the sender's: none of it is read
    expect(c.aligned).toBe(false);
  });

  test("a forged dkim=pass under the provider's id, where the provider's header said nothing of DKIM, does not show", () => {
    const b = block("mx.google.com; spf=softfail smtp.mailfrom=x@evil.example", "mx.google.com; dkim=pass header.d=paypal.com");
    expect(senderCheck(b, "service@paypal.com", GOOGLE)).toEqual({ spf: "softfail", dkim: null, dmarc: null, from_domain: "paypal.com", aligned: false });
  });

  test("iCloud's one header per method, each under its own id, are read together", () => {
    const b = block("dmarc.icloud.com; dmarc=pass header.from=shop.example", "dkim-verifier.icloud.com; dkim=pass header.d=shop.example", "spf.icloud.com; spf=pass smtp.mailfrom=shop.example");
    expect(senderCheck(b, "hi@shop.example", [".icloud.com"])).toEqual({ spf: "pass", dkim: "pass", dmarc: "pass", from_domain: "shop.example", aligned: true });
  });

  test("a forged header below another server's header is ignored entirely", () => {
    const b = block("mx.google.com; spf=none", "relay.example; x=1", "mx.google.com; dmarc=pass; dkim=pass header.d=paypal.com");
    const c = senderCheck(b, "service@paypal.com", GOOGLE)!;
    expect(c).toEqual({ spf: "none", dkim: null, dmarc: null, from_domain: "paypal.com", aligned: false });
  });

  test("a header a sender wrote on top without the provider's id: null, never a pass", () => {
    const b = block("evil.example; dmarc=pass; dkim=pass header.d=paypal.com; spf=pass");
    expect(senderCheck(b, "service@paypal.com", GOOGLE)).toBeNull();
    expect(senderCheck(b, "service@paypal.com", [])).toBeNull();
  });

  test("Microsoft's id-less form and comments", () => {
    const b = block("spf=pass (sender IP is 1.2.3.4) smtp.mailfrom=news.shop.example; dkim=pass (signature was verified) header.d=shop.example;dmarc=pass action=none header.from=shop.example;compauth=pass reason=100");
    expect(senderCheck(b, "hi@shop.example", [""])).toEqual({ spf: "pass", dkim: "pass", dmarc: "pass", from_domain: "shop.example", aligned: true });
  });
});

describe("lookalike names and plain warnings", () => {
  test("a display name holding another address", () => {
    expect(nameHoldsOtherAddress({ name: "PayPal service@paypal.com", address: "x@evil.example" })).toBe(true);
    expect(nameHoldsOtherAddress({ name: "Service service@paypal.com", address: "service@paypal.com" })).toBe(false);
    expect(nameHoldsOtherAddress({ name: "PayPal", address: "x@evil.example" })).toBe(false);
  });
  test("DMARC fail is said plainly", () => {
    const w = senderWarnings({ name: "PayPal service@paypal.com", address: "x@evil.example" }, { spf: "fail", dkim: null, dmarc: "fail", from_domain: "evil.example", aligned: false });
    expect(w.join(" ")).toContain("DMARC failed");
    expect(w.join(" ")).toContain("display name contains an email address");
  });
});

describe("List-Unsubscribe", () => {
  test("one-click needs the RFC 8058 value and an https link", () => {
    expect(unsubscribeOffer(["<mailto:leave@list.example?subject=unsubscribe>, <https://list.example/u/1>"], ["List-Unsubscribe=One-Click"]))
      .toEqual({ one_click: true, https: "https://list.example/u/1", mailto: "mailto:leave@list.example?subject=unsubscribe" });
    expect(unsubscribeOffer(["<http://list.example/u/1>"], ["List-Unsubscribe=One-Click"])).toBeNull();
    expect(unsubscribeOffer(["<https://list.example/u/1>"], [])).toEqual({ one_click: false, https: "https://list.example/u/1", mailto: null });
    expect(unsubscribeOffer([], [])).toBeNull();
  });
});
