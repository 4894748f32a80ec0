// Several mailboxes in one connection, the whole flow in headless Chromium (docs/design.md §3): alice by
// password with "add another mailbox", the page listing her, then bob through the fake provider's
// sign-in, back at the client with one code whose token reads both (list_accounts, a spanning read).
// Also: the same address twice is refused (400, the form again), and "finish" returns with what is connected.
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { signInApp } from "../support/browser.ts";
import { callOk, connectClient } from "../support/mcp-client.ts";
import { authorizeQuery, newVerifier, tokenFields } from "./flow.ts";

const fx = signInApp();

async function open() {
  const context = await fx.browser.newContext();
  const page = await context.newPage();
  const verifier = newVerifier();
  await page.goto(`${fx.srv.baseUrl}/oauth/authorize?${authorizeQuery(verifier, { redirect_uri: fx.callback.redirect })}`);
  return { context, page, verifier };
}

async function fillAlice(page: Page) {
  await page.selectOption("#provider", "custom");
  await page.fill("#email", fx.h.dovecot.users.alice.email);
  await page.fill("#password", fx.h.dovecot.users.alice.pass);
  await page.fill("#imap_host", "localhost");
  await page.fill("#imap_port", String(fx.h.dovecot.port));
  await page.selectOption("#imap_security", "none");
  await page.fill("#smtp_host", "localhost");
  await page.fill("#smtp_port", String(fx.h.smtp.port));
  await page.selectOption("#smtp_security", "none");
}

/** alice by password with "add another": 200, the page lists her and offers the form and "finish". */
async function addAlice(page: Page) {
  await fillAlice(page);
  await page.check("#another");
  const [res] = await Promise.all([page.waitForResponse(`${fx.srv.baseUrl}/oauth/connect`), page.click("#connect")]);
  expect(res.status()).toBe(200);
  expect(await page.locator("#connected li.mailbox").allTextContents()).toEqual(["alice@example.test"]);
  expect(await page.isVisible("#finish-button")).toBe(true);
}

async function tokenFor(page: Page, verifier: string): Promise<string> {
  const code = new URL(page.url()).searchParams.get("code")!;
  const res = await fetch(`${fx.srv.baseUrl}/oauth/token`, { method: "POST", body: new URLSearchParams(tokenFields(code, verifier, { redirect_uri: fx.callback.redirect })) });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe("several mailboxes in one connection, in Chromium", () => {
  test("alice by password, then bob through the provider sign-in: one token reads both", async () => {
    const { context, page, verifier } = await open();
    await addAlice(page);
    await page.selectOption("#provider", "fake");
    await page.click("#connect");
    await page.waitForURL((u) => u.href.startsWith(`${fx.h.oauth.url}/authorize?`));
    await page.fill("#login", "bob@example.test");
    await Promise.all([page.waitForURL((u) => u.href.startsWith(`${fx.callback.redirect}?`)), page.click("#accept")]);
    const client = await connectClient(fx.srv.mcpUrl, await tokenFor(page, verifier));
    await context.close();
    try {
      const { accounts } = await callOk(client, "list_accounts");
      expect(accounts.map((a: { account: string }) => a.account)).toEqual(["alice@example.test", "bob@example.test"]);
      expect(accounts.map((a: { provider: string }) => a.provider)).toEqual(["custom", "fake"]);
      const page1 = await callOk(client, "get_recent_emails", { limit: 5 });
      expect(page1.accounts_failed).toEqual([]);
    } finally {
      await client.close();
    }
  }, 90_000);

  test("the same address twice is refused with the form; finish returns with what is connected", async () => {
    const { context, page, verifier } = await open();
    await addAlice(page);
    await fillAlice(page);
    const [res] = await Promise.all([page.waitForResponse(`${fx.srv.baseUrl}/oauth/connect`), page.click("#connect")]);
    expect(res.status()).toBe(400);
    expect(await page.textContent(".error")).toContain("already connected");
    await Promise.all([page.waitForURL((u) => u.href.startsWith(`${fx.callback.redirect}?`)), page.click("#finish-button")]);
    const client = await connectClient(fx.srv.mcpUrl, await tokenFor(page, verifier));
    await context.close();
    try {
      expect((await callOk(client, "list_accounts")).accounts).toHaveLength(1);
    } finally {
      await client.close();
    }
  }, 90_000);
});
