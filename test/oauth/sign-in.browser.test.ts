// The whole sign-in at an OAuth provider in headless Chromium (docs/oauth-providers.md): authorize → the
// setup form → "Sign in with …" → the provider's consent page → our callback → the MCP client's redirect
// with a code → token → tools that read and send. With JavaScript the provider is chosen in the list
// (the password field goes away, the button says "Sign in with Fake Mail"); without it, its own button.
// The CSP's form-action must let the 303 to the provider through, and the SameSite=Lax cookie must come
// back on the provider's redirect.
import { describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { signInApp } from "../support/browser.ts";
import { callOk, connectClient } from "../support/mcp-client.ts";
import { authorizeQuery, newVerifier, tokenFields } from "./flow.ts";

const fx = signInApp();

async function open(javaScriptEnabled: boolean) {
  const context = await fx.browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  const cspErrors: string[] = [];
  page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text()); });
  const verifier = newVerifier();
  await page.goto(`${fx.srv.baseUrl}/oauth/authorize?${authorizeQuery(verifier, { redirect_uri: fx.callback.redirect })}`);
  return { context, page, verifier, cspErrors };
}

/** At the provider: sign in as `login` and accept; back at the client's callback. */
async function consent(page: Page, login: string): Promise<string> {
  await page.waitForURL((u) => u.href.startsWith(`${fx.h.oauth.url}/authorize?`));
  await page.fill("#login", login);
  await Promise.all([page.waitForURL((u) => u.href.startsWith(`${fx.callback.redirect}?`)), page.click("#accept")]);
  return new URL(page.url()).searchParams.get("code")!;
}

/**
 * The sending choice that lets the test's message go out at once: under the default (ask before writing
 * to someone new) a client without elicitation gets it held as a draft, and nothing reaches SMTP.
 */
const SEND_DIRECTLY = 'input[name="send"][value="direct"]';

async function readAndSend(code: string, verifier: string) {
  const res = await fetch(`${fx.srv.baseUrl}/oauth/token`, { method: "POST", body: new URLSearchParams(tokenFields(code, verifier, { redirect_uri: fx.callback.redirect })) });
  const { access_token } = (await res.json()) as { access_token: string };
  const client = await connectClient(fx.srv.mcpUrl, access_token);
  try {
    expect((await callOk<{ emails: unknown[] }>(client, "get_recent_emails", { limit: 1 })).emails).toBeArray();
    const before = fx.h.smtp.messages.length;
    await callOk(client, "send_email", { to: "bob@example.test", subject: "from the browser sign-in", text: "x" });
    expect(fx.h.smtp.messages.length).toBe(before + 1); // sent, not held: the form chose "Send without asking"
    expect(fx.h.smtp.messages.at(-1)?.user).toBe("alice@example.test");
  } finally {
    await client.close();
  }
}

describe("sign-in at an OAuth provider in headless Chromium", () => {
  test("with JavaScript: chosen in the list, the password field goes and the button signs in", async () => {
    const { context, page, verifier, cspErrors } = await open(true);
    await page.check(SEND_DIRECTLY);
    await page.selectOption("#provider", "fake");
    expect(await page.isHidden("#password")).toBe(true);
    expect(await page.isHidden("#signin-buttons")).toBe(true);
    expect(await page.textContent("#connect")).toBe("Sign in with Fake Mail");
    await page.click("#connect");
    const code = await consent(page, "alice@example.test");
    expect(cspErrors).toEqual([]);
    await context.close();
    await readAndSend(code, verifier);
  }, 60_000);

  test("without JavaScript: the provider's own button, no password or address needed", async () => {
    const { context, page, verifier } = await open(false);
    await page.check(SEND_DIRECTLY);
    await page.click('button[name="upstream"][value="fake"]');
    const code = await consent(page, "alice@example.test");
    await context.close();
    await readAndSend(code, verifier);
  }, 60_000);

  test("consent declined: back on the form with the reason, still in the browser", async () => {
    const { context, page } = await open(true);
    await page.selectOption("#provider", "fake");
    await page.click("#connect");
    await page.waitForURL((u) => u.href.startsWith(`${fx.h.oauth.url}/authorize?`));
    await Promise.all([page.waitForURL((u) => u.href.startsWith(`${fx.srv.baseUrl}/oauth/upstream/callback?`)), page.click("#decline")]);
    expect(await page.textContent(".error")).toContain("You declined the permissions at Fake Mail");
    expect(await page.inputValue("#provider")).toBe("fake");
    await context.close();
  }, 60_000);
});
