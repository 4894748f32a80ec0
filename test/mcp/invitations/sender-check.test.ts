// sender_check and unsubscribe end to end, on a Dovecot of this file's own (a fresh INBOX, so the
// authserv-id learned from it is the one these messages carry): the provider's Authentication-Results
// (RFC 8601) is the topmost header; a forged pass written lower down never shows on get_recent_emails,
// search_emails or get_email; a message whose only header the sender wrote has no verdict at all; and
// get_email's text says plainly when DMARC failed and when the display name holds another address.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startDovecot, type DovecotServer } from "../../support/dovecot.ts";
import { plainText } from "../../support/mail-fixtures.ts";
import { callOk, connectClient, startTestServer, textOf, call, type TestServer } from "../../support/mcp-client.ts";
import { issueTestToken, testAccount } from "../../support/token.ts";

const PROVIDER = "mx.test.example";
const GOOD = `${PROVIDER}; spf=pass smtp.mailfrom=news@shop.example; dkim=pass header.d=shop.example header.s=s1; dmarc=pass header.from=shop.example`;
const FORGED_PASS = `${PROVIDER}; spf=pass smtp.mailfrom=service@paypal.com; dkim=pass header.d=paypal.com; dmarc=pass header.from=paypal.com`;

let dovecot: DovecotServer;
let srv: TestServer;
let mcp: Client;

/** Trace lines put on top of a message, as servers on the way add them (RFC 5321 §4.4, RFC 8601 §7.2). */
const onTop = (lines: string[], raw: string) => lines.map((l) => `${l}\r\n`).join("") + raw;

beforeAll(async () => {
  dovecot = await startDovecot();
  srv = await startTestServer();
  mcp = await connectClient(srv.mcpUrl, await issueTestToken(srv.deps, testAccount(dovecot.users.alice, dovecot)));
  const alice = dovecot.users.alice.email;
  for (let i = 0; i < 5; i++) {
    await dovecot.deliver("alice", plainText({ from: "Shop <news@shop.example>", to: alice, subject: `newsletter ${i}`,
      headers: { "Authentication-Results": GOOD, "List-Unsubscribe": "<mailto:leave@shop.example?subject=leave>" } }));
  }
  // The provider's verdict (DMARC fail) on top; below a Received line, the pass the sender wrote.
  await dovecot.deliver("alice", onTop([
    `Authentication-Results: ${PROVIDER}; spf=fail smtp.mailfrom=x@evil.example; dkim=none; dmarc=fail header.from=evil.example`,
    "Received: from relay.evil.example by mx.test.example; Sun, 1 Mar 2026 10:00:00 +0000",
  ], plainText({ from: '"PayPal service@paypal.com" <x@evil.example>', to: alice, subject: "phish", headers: { "Authentication-Results": FORGED_PASS } })));
  // The provider said nothing of DKIM or DMARC; the sender's header claims both under the provider's id.
  await dovecot.deliver("alice", onTop([`Authentication-Results: ${PROVIDER}; spf=softfail smtp.mailfrom=x@evil.example`],
    plainText({ from: "PayPal <service@paypal.com>", to: alice, subject: "half forged", headers: { "Authentication-Results": FORGED_PASS } })));
  await dovecot.deliver("alice", plainText({ from: "PayPal <service@paypal.com>", to: alice, subject: "forged only",
    headers: { "Authentication-Results": "evil.example; spf=pass; dkim=pass header.d=paypal.com; dmarc=pass header.from=paypal.com" } }));
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await srv?.stop();
  await dovecot?.stop();
});

type Summary = { uid: number; subject: string; sender_check: Record<string, unknown> | null; unsubscribe: unknown };
const bySubject = (emails: Summary[], subject: string) => emails.find((e) => e.subject === subject)!;

describe("sender_check and unsubscribe end to end", () => {
  test("get_recent_emails: the provider's verdicts; the forged pass lower down never shows; a sender's own header is no verdict", async () => {
    const { emails } = await callOk<{ emails: Summary[] }>(mcp, "get_recent_emails", { limit: 20 });
    expect(bySubject(emails, "newsletter 0")).toMatchObject({
      sender_check: { spf: "pass", dkim: "pass", dmarc: "pass", from_domain: "shop.example", aligned: true },
      unsubscribe: { one_click: false, https: null, mailto: "mailto:leave@shop.example?subject=leave" },
    });
    const phish = bySubject(emails, "phish");
    expect(phish.sender_check).toMatchObject({ spf: "fail", dmarc: "fail", from_domain: "evil.example", aligned: false });
    expect(JSON.stringify(phish.sender_check)).not.toContain("pass");
    expect(phish.unsubscribe).toBeNull();
    expect(bySubject(emails, "half forged").sender_check).toEqual({ spf: "softfail", dkim: null, dmarc: null, from_domain: "paypal.com", aligned: false });
    expect(bySubject(emails, "forged only").sender_check).toBeNull();
  });

  test("search_emails: the same fields", async () => {
    const found = await callOk<{ emails: Summary[] }>(mcp, "search_emails", { subject: "phish" });
    expect(found.emails.map((e) => e.sender_check?.dmarc)).toEqual(["fail"]);
    const forged = await callOk<{ emails: Summary[] }>(mcp, "search_emails", { subject: "forged" });
    expect(forged.emails.map((e) => [e.subject, e.sender_check?.dkim ?? null, e.sender_check?.dmarc ?? null]).sort())
      .toEqual([["forged only", null, null], ["half forged", null, null]]);
  });

  test("get_email: the fields, and the text warns of the DMARC failure and the address in the display name", async () => {
    const { emails } = await callOk<{ emails: Summary[] }>(mcp, "get_recent_emails", { limit: 20 });
    const res = await call(mcp, "get_email", { folder: "INBOX", uid: bySubject(emails, "phish").uid });
    expect((res.structuredContent as Summary).sender_check).toMatchObject({ dmarc: "fail" });
    expect(textOf(res)).toContain("Warning: DMARC failed.");
    expect(textOf(res)).toContain("display name contains an email address different from the address the message really came from");
    const plain = await call(mcp, "get_email", { folder: "INBOX", uid: bySubject(emails, "newsletter 1").uid });
    expect(textOf(plain)).not.toContain("Warning:");
    expect(plain.structuredContent).toMatchObject({ sender_check: { dmarc: "pass" }, unsubscribe: { mailto: "mailto:leave@shop.example?subject=leave" } });
  });
});
