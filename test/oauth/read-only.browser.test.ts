// Read-only access chosen in real headless Chromium (with and without JavaScript), through the
// token exchange, to /mcp: send_email gets HTTP 403 insufficient_scope, get_recent_emails works.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium, startCallbackServer, type CallbackServer } from "../support/browser.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { freePort } from "../support/ports.ts";
import { testApp } from "../support/app.ts";
import { call, callOk, connectClient } from "../support/mcp-client.ts";
import { authorizeQuery, newVerifier, postForm, tokenFields } from "./flow.ts";

let h: Harness;
let base: string;
let server: ReturnType<typeof testApp>;
let browser: Browser;
let callback: CallbackServer;

beforeAll(async () => {
  h = await getHarness();
  callback = await startCallbackServer();
  const port = await freePort();
  base = `http://localhost:${port}`;
  server = testApp({ baseUrl: base, extraRedirectUris: callback.extra });
  server.app.listen({ port, hostname: "127.0.0.1" });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.runtime.close();
  await server?.app.stop(true);
  callback?.stop();
}, 30_000);

async function fillAlice(page: Page) {
  await page.selectOption("#provider", "custom");
  await page.fill("#email", h.dovecot.users.alice.email);
  await page.fill("#password", h.dovecot.users.alice.pass);
  await page.fill("#imap_host", h.dovecot.host);
  await page.fill("#imap_port", String(h.dovecot.port));
  await page.selectOption("#imap_security", "none");
  await page.fill("#smtp_host", h.smtp.host);
  await page.fill("#smtp_port", String(h.smtp.port));
  await page.selectOption("#smtp_security", "none");
}

/** The browser part: authorize page → (choose) → connect → the callback's code; then the token response. */
async function readOnlyToken(javaScriptEnabled: boolean, query: Record<string, string>, choose: boolean) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  const verifier = newVerifier();
  await page.goto(`${base}/oauth/authorize?${authorizeQuery(verifier, { redirect_uri: callback.redirect, ...query })}`);
  await fillAlice(page);
  const label = page.getByLabel(/Read only/);
  if (choose) await label.check();
  expect(await label.isChecked()).toBe(true);
  await Promise.all([page.waitForURL((u) => u.href.startsWith(callback.redirect + "?")), page.click("#connect")]);
  const code = new URL(page.url()).searchParams.get("code")!;
  await context.close();
  const res = await postForm(server.app, "/oauth/token", tokenFields(code, verifier, { redirect_uri: callback.redirect }));
  return (await res.json()) as { access_token: string; scope: string };
}

async function expectReadOnly(token: { access_token: string; scope: string }) {
  expect(token.scope).toBe("email:read");
  const client = await connectClient(`${base}/mcp`, token.access_token);
  try {
    const recent = await callOk<{ emails: unknown[] }>(client, "get_recent_emails", { limit: 1 });
    expect(Array.isArray(recent.emails)).toBe(true);
    const sent = h.smtp.messages.length;
    const err = await call(client, "send_email", { to: "bob@example.test", subject: "must not go", text: "x" })
      .then(() => null, (e: Error & { code?: number }) => e);
    expect(err?.code).toBe(403);
    expect(String(err?.message)).toContain("lacks the email:write scope");
    expect(h.smtp.messages.length).toBe(sent);
  } finally {
    await client.close();
  }
}

describe("read-only access in headless Chromium", () => {
  test("chosen on the form with JavaScript on", async () => {
    await expectReadOnly(await readOnlyToken(true, {}, true));
  }, 60_000);

  test("chosen on the form without JavaScript", async () => {
    await expectReadOnly(await readOnlyToken(false, {}, true));
  }, 60_000);

  test("pre-selected, and the only choice, when the client asks for scope=email:read", async () => {
    await expectReadOnly(await readOnlyToken(false, { scope: "email:read" }, false));
  }, 60_000);
});
