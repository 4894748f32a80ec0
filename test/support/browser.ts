// Headless Chromium for page tests, and a real callback server for the OAuth redirect (Playwright's
// route() does not see the request that follows a redirect). Same flags as the setup form's test.
import { afterAll, beforeAll } from "bun:test";
import { chromium, type Browser, type Page } from "playwright-core";
import type { Config } from "../../src/config.ts";
import { REDIRECT } from "../oauth/flow.ts";
import { testApp } from "./app.ts";
import { getHarness, type Harness } from "./harness.ts";
import { freePort } from "./ports.ts";
import { refuseInUnitRun } from "./unit-guard.ts";
import type { FakeClient } from "./fake-oauth/server.ts";
import { startTestServer, type TestServer } from "./mcp-client.ts";

export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  refuseInUnitRun("Chromium");
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

export interface CallbackServer {
  /** The redirect URI to use: the seed's http://localhost:6274/oauth/callback when 6274 is free. */
  redirect: string;
  /** Extra redirect URIs to configure (the fallback one), or none. */
  extra: string[];
  stop(): void;
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const fetch = () => new Response("callback reached", { headers: { "content-type": "text/plain" } });
  try {
    const server = Bun.serve({ port: 6274, hostname: "127.0.0.1", fetch });
    return { redirect: REDIRECT, extra: [], stop: () => server.stop(true) };
  } catch {
    const port = await freePort();
    const server = Bun.serve({ port, hostname: "127.0.0.1", fetch });
    const redirect = `http://localhost:${port}/oauth/callback`;
    return { redirect, extra: [redirect], stop: () => server.stop(true) };
  }
}

export interface BrowserApp {
  /** http://localhost:PORT, the app's {base_url}. */
  base: string;
  server: ReturnType<typeof testApp>;
  browser: Browser;
  stop(): Promise<void>;
}

/** The real app listening on a free loopback port (base URL set to it), and Chromium to look at it. */
export async function startBrowserApp(overrides: Partial<Config> = {}): Promise<BrowserApp> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const server = testApp({ baseUrl: base, ...overrides });
  server.app.listen({ port, hostname: "127.0.0.1" });
  const browser = await launchChromium();
  return {
    base, server, browser,
    async stop() {
      await browser.close();
      await server.runtime.close(); // MCP sessions and IMAP connections a test opened
      await server.app.stop(true);
    },
  };
}

/** Fills the setup (or sign-in) form for alice's mailbox on the harness's Dovecot and SMTP receiver ("custom", no TLS). */
export async function fillAlice(page: Page, h: Harness, password = h.dovecot.users.alice.pass): Promise<void> {
  await page.selectOption("#provider", "custom");
  await page.fill("#email", h.dovecot.users.alice.email);
  await page.fill("#password", password);
  await page.fill("#imap_host", h.dovecot.host);
  await page.fill("#imap_port", String(h.dovecot.port));
  await page.selectOption("#imap_security", "none");
  await page.fill("#smtp_host", h.smtp.host);
  await page.fill("#smtp_port", String(h.smtp.port));
  await page.selectOption("#smtp_security", "none");
}

export interface FormApp {
  h: Harness;
  running: BrowserApp;
  callback: CallbackServer;
}

/** Registers the file's beforeAll/afterAll: the harness, a callback server, the app and Chromium; the fields are set once beforeAll has run. */
export function formApp(): FormApp {
  const fx = {} as FormApp;
  beforeAll(async () => {
    fx.h = await getHarness();
    fx.callback = await startCallbackServer();
    fx.running = await startBrowserApp({ extraRedirectUris: fx.callback.extra });
  }, 60_000);
  afterAll(async () => {
    await fx.running?.stop();
    fx.callback?.stop();
  }, 30_000);
  return fx;
}

/**
 * Runs `act` (a form POST answered by a 303 to `url`, the page it was sent from) and waits until `url`
 * has loaded again: waiting for the URL alone can return at once, before the answer (a race seen under
 * the whole suite's load).
 */
export async function loadedAgain(page: Page, url: string, act: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForResponse((r) => r.url() === url && r.request().method() === "GET"), act()]);
  await page.waitForLoadState();
}

export interface SignInApp {
  h: Harness;
  srv: TestServer;
  browser: Browser;
  callback: CallbackServer;
  fake: FakeClient;
}

/**
 * Registers the file's beforeAll/afterAll for a provider sign-in in Chromium: the harness, a callback
 * server for the MCP client's redirect, a test server offering the fake OAuth provider ("fake") for the
 * harness's Dovecot and SMTP receiver, and Chromium. The fields are set once beforeAll has run.
 */
export function signInApp(): SignInApp {
  const fx = {} as SignInApp;
  beforeAll(async () => {
    fx.h = await getHarness();
    fx.callback = await startCallbackServer();
    fx.fake = fx.h.oauth.client({ redirectUris: [], clock: () => fx.srv.deps.clock() });
    const mail = { imap: { host: "localhost", port: fx.h.dovecot.port, security: "none" as const }, smtp: { host: "localhost", port: fx.h.smtp.port, security: "none" as const } };
    fx.srv = await startTestServer({ config: { extraRedirectUris: fx.callback.extra, oauth: { microsoft: null, google: null, file: [fx.fake.settings(mail, { id: "fake" })] } } });
    fx.fake.options.redirectUris.push(`${fx.srv.baseUrl}/oauth/upstream/callback`);
    fx.browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await fx.browser?.close();
    await fx.srv?.stop();
    fx.callback?.stop();
  }, 30_000);
  return fx;
}
