// Headline test: the setup form in real headless Chromium against a listening server and the harness
// Dovecot. The CSP (nonce, form-action 'self' + redirect origin) must let the form post and the 303 land.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { freePort } from "../support/dovecot.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { testApp } from "../support/app.ts";
import { fillAlice } from "../support/browser.ts";
import { authorizeQuery, newVerifier, postForm, REDIRECT, tokenFields } from "./flow.ts";

const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

let h: Harness;
let base: string;
let server: ReturnType<typeof testApp>;
let browser: Browser;
let callbackServer: ReturnType<typeof Bun.serve>;
/** The client's callback: the seed's http://localhost:6274/oauth/callback when 6274 is free, else an extra URI. */
let redirect = REDIRECT;

/** Playwright's route() does not see the request that follows a redirect, so a real server answers it. */
async function startCallback(): Promise<string[]> {
  // HTML, so the same server can also play the client's page that opens the setup form in a popup.
  const fetch = () => new Response("<!doctype html><title>client</title><body>callback reached</body>", { headers: { "content-type": "text/html" } });
  try {
    callbackServer = Bun.serve({ port: 6274, hostname: "127.0.0.1", fetch });
    return [];
  } catch {
    const port = await freePort();
    callbackServer = Bun.serve({ port, hostname: "127.0.0.1", fetch });
    redirect = `http://localhost:${port}/oauth/callback`;
    return [redirect];
  }
}

beforeAll(async () => {
  h = await getHarness();
  const port = await freePort();
  base = `http://localhost:${port}`;
  server = testApp({ baseUrl: base, extraRedirectUris: await startCallback() });
  server.app.listen({ port, hostname: "127.0.0.1" });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.app.stop(true);
  callbackServer?.stop(true);
}, 30_000);

/** A fresh context on the authorize page; collects CSP violations from the console. */
async function open(opts: { javaScriptEnabled?: boolean; width?: number } = {}) {
  const context: BrowserContext = await browser.newContext({
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
    viewport: { width: opts.width ?? 1280, height: 900 },
  });
  const page: Page = await context.newPage();
  const cspErrors: string[] = [];
  page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text()); });
  const verifier = newVerifier();
  const state = `st-${Math.random().toString(36).slice(2)}<&>`;
  const res = await page.goto(`${base}/oauth/authorize?${authorizeQuery(verifier, { state, redirect_uri: redirect })}`);
  expect(res?.status()).toBe(200);
  return { context, page, verifier, state, cspErrors };
}

const fillCustom = (page: Page, password: string) => fillAlice(page, h, password);

describe("setup form in headless Chromium", () => {
  test("custom provider with the right password lands on the redirect with code and state", async () => {
    const { context, page, verifier, state, cspErrors } = await open();
    await fillCustom(page, h.dovecot.users.alice.pass);
    await Promise.all([page.waitForURL((u) => u.href.startsWith(redirect + "?")), page.click("#connect")]);
    const landed = new URL(page.url());
    expect(landed.origin + landed.pathname).toBe(redirect);
    expect(landed.searchParams.get("state")).toBe(state);
    const code = landed.searchParams.get("code")!;
    expect(code).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(await page.textContent("body")).toContain("callback reached");
    expect(cspErrors).toEqual([]);
    // The code from the browser flow is a real one.
    expect((await postForm(server.app, "/oauth/token", tokenFields(code, verifier, { redirect_uri: redirect }))).status).toBe(200);
    await context.close();
  }, 60_000);

  // Popup-based clients (ChatGPT's connector flow, others) poll popup.closed and may wait for a
  // message through window.opener. Any Cross-Origin-Opener-Policy but unsafe-none on the setup page
  // would sever that handle for good (the popup reads as closed at once): docs/decisions.md.
  test("a client that opens the setup page in a popup keeps its handle on it through the callback", async () => {
    const context = await browser.newContext();
    const client = await context.newPage();
    await client.goto(new URL("/client", redirect).href);
    const url = `${base}/oauth/authorize?${authorizeQuery(newVerifier(), { redirect_uri: redirect })}`;
    const [popup] = await Promise.all([
      context.waitForEvent("page"),
      client.evaluate((u) => { (window as unknown as { w: Window | null }).w = window.open(u, "auth", "width=600,height=700"); }, url),
    ]);
    await popup.waitForSelector("#connect");
    expect(await client.evaluate(() => (window as unknown as { w: Window }).w.closed)).toBe(false);
    await fillCustom(popup, h.dovecot.users.alice.pass);
    await Promise.all([popup.waitForURL((u) => u.href.startsWith(redirect + "?")), popup.click("#connect")]);
    expect(await popup.evaluate(() => window.opener !== null)).toBe(true);
    expect(await client.evaluate(() => (window as unknown as { w: Window }).w.closed)).toBe(false);
    await context.close();
  }, 60_000);

  test("the wrong password shows the message, keeps the email, clears the password", async () => {
    const { context, page, cspErrors } = await open();
    await fillCustom(page, "definitely-wrong");
    const [response] = await Promise.all([page.waitForResponse(`${base}/oauth/connect`), page.click("#connect")]);
    expect(response.status()).toBe(401);
    await page.waitForLoadState();
    expect(await page.textContent(".error")).toContain("rejected the email address or password");
    expect(await page.inputValue("#email")).toBe(h.dovecot.users.alice.email);
    expect(await page.inputValue("#password")).toBe("");
    expect(await page.inputValue("#provider")).toBe("custom");
    expect(await page.content()).not.toContain("definitely-wrong");
    expect(cspErrors).toEqual([]);
    await context.close();
  }, 60_000);

  test("the script (allowed by the nonce) hides custom fields for presets and shows the provider's link", async () => {
    const { context, page, cspErrors } = await open();
    await page.selectOption("#provider", "gmail");
    expect(await page.isHidden("#custom")).toBe(true);
    expect(await page.getAttribute("#app-password-help a", "href")).toBe("https://myaccount.google.com/apppasswords");
    await page.selectOption("#provider", "custom");
    expect(await page.isVisible("#custom")).toBe(true);
    expect(cspErrors).toEqual([]);
    await context.close();
  }, 60_000);

  test("works without JavaScript: custom fields are there and the form submits", async () => {
    const { context, page, state } = await open({ javaScriptEnabled: false });
    expect(await page.isVisible("#custom")).toBe(true);
    await fillCustom(page, h.dovecot.users.alice.pass);
    await Promise.all([page.waitForURL((u) => u.href.startsWith(redirect + "?")), page.click("#connect")]);
    expect(new URL(page.url()).searchParams.get("state")).toBe(state);
    await context.close();
  }, 60_000);

  test("screenshots: desktop and a 375px phone, where nothing overflows or is cut", async () => {
    const desktop = await open();
    await desktop.page.screenshot({ path: "/tmp/setup-form.png", fullPage: true });
    await desktop.context.close();
    const phone = await open({ width: 375 });
    await phone.page.selectOption("#provider", "custom");
    await phone.page.selectOption("#imap_security", "none"); // the longest choice, "None (unencrypted)"
    await phone.page.selectOption("#smtp_security", "none");
    const layout = await phone.page.evaluate(() => {
      const box = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
      const [legend, fieldset] = [box("#custom legend"), box("#custom")];
      const canvas = document.createElement("canvas").getContext("2d")!;
      // Room for the chosen option's text: the select's width less its padding and the arrow (~24px).
      const cut = [...document.querySelectorAll<HTMLSelectElement>("#custom select")].filter((s) => {
        const style = getComputedStyle(s);
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
        return canvas.measureText(s.options[s.selectedIndex]!.text).width > room;
      }).map((s) => s.id);
      return {
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        // A legend wrapped over two lines is drawn across the fieldset's top border.
        legendLines: Math.round(legend.height / parseFloat(getComputedStyle(document.querySelector("#custom legend")!).lineHeight)),
        legendInside: legend.left >= fieldset.left && legend.right <= fieldset.right,
        cut,
      };
    });
    expect(layout.overflow).toBeLessThanOrEqual(0); // no sideways scrolling on a phone
    expect(layout).toMatchObject({ legendLines: 1, legendInside: true }); // "Custom server" stays within its border
    expect(layout.cut).toEqual([]); // "None (unencrypted)" is readable, not "None (unen"
    await phone.page.screenshot({ path: "/tmp/setup-form-phone.png", fullPage: true });
    await phone.context.close();
  }, 60_000);
});
