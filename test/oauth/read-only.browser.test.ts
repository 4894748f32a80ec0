// Read-only access chosen in real headless Chromium (with and without JavaScript), through the
// token exchange, to /mcp: send_email gets HTTP 403 insufficient_scope, get_recent_emails works.
import { describe, expect, test } from "bun:test";
import { fillAlice, formApp } from "../support/browser.ts";
import { call, callOk, connectClient } from "../support/mcp-client.ts";
import { authorizeQuery, newVerifier, postForm, tokenFields } from "./flow.ts";

const fx = formApp();

/** The browser part: authorize page → (choose) → connect → the callback's code; then the token response. */
async function readOnlyToken(javaScriptEnabled: boolean, query: Record<string, string>, choose: boolean) {
  const context = await fx.running.browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  const verifier = newVerifier();
  await page.goto(`${fx.running.base}/oauth/authorize?${authorizeQuery(verifier, { redirect_uri: fx.callback.redirect, ...query })}`);
  await fillAlice(page, fx.h);
  const label = page.getByLabel(/Read only/);
  if (choose) await label.check();
  expect(await label.isChecked()).toBe(true);
  await Promise.all([page.waitForURL((u) => u.href.startsWith(fx.callback.redirect + "?")), page.click("#connect")]);
  const code = new URL(page.url()).searchParams.get("code")!;
  await context.close();
  const res = await postForm(fx.running.server.app, "/oauth/token", tokenFields(code, verifier, { redirect_uri: fx.callback.redirect }));
  return (await res.json()) as { access_token: string; scope: string };
}

async function expectReadOnly(token: { access_token: string; scope: string }) {
  expect(token.scope).toBe("email:read");
  const client = await connectClient(`${fx.running.base}/mcp`, token.access_token);
  try {
    const recent = await callOk<{ emails: unknown[] }>(client, "get_recent_emails", { limit: 1 });
    expect(Array.isArray(recent.emails)).toBe(true);
    const sent = fx.h.smtp.messages.length;
    const err = await call(client, "send_email", { to: "bob@example.test", subject: "must not go", text: "x" })
      .then(() => null, (e: Error & { code?: number }) => e);
    expect(err?.code).toBe(403);
    expect(String(err?.message)).toContain("lacks the email:write scope");
    expect(fx.h.smtp.messages.length).toBe(sent);
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
