// The owner's page signed in through an OAuth mail provider, in Chromium without JavaScript
// (docs/owner.md §7): "Sign in with Fake Mail" → the provider's consent page (another site: the fake
// provider is on 127.0.0.1, this server on localhost) → our callback, which, because the flow row says
// the page started it, checks the live IMAP login with the token and opens the page session (no grant,
// no code, the provider's tokens not kept) → this mailbox's connections → sign out.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launchChromium, loadedAgain } from "../support/browser.ts";
import type { FakeClient } from "../support/fake-oauth/server.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";
import { authorize, obtainToken } from "../oauth/flow.ts";

let h: Harness;
let srv: TestServer;
let browser: Browser;
let fake: FakeClient;

beforeAll(async () => {
  h = await getHarness();
  fake = h.oauth.client({ redirectUris: [], clock: () => srv.deps.clock() });
  // The same IMAP host and port as the password connections below: a mailbox is its login at its server.
  const mail = { imap: { host: h.dovecot.host, port: h.dovecot.port, security: "none" as const }, smtp: { host: h.smtp.host, port: h.smtp.port, security: "none" as const } };
  srv = await startTestServer({ config: { oauth: { microsoft: null, google: null, file: [fake.settings(mail, { id: "fake" })] } } });
  fake.options.redirectUris.push(`${srv.baseUrl}/oauth/upstream/callback`);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await srv?.stop();
}, 30_000);

async function connectAs(who: "alice" | "bob"): Promise<void> {
  const u = h.dovecot.users[who];
  expect((await obtainToken(srv.deps.app, h, { email: u.email, password: u.pass, send: "direct" })).token).toBeTruthy(); // throws unless 200
}

const counts = async () => {
  const rows = await srv.deps.db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM grants`;
  return Number(rows[0]!.n);
};


describe("/account: sign in through an OAuth mail provider", () => {
  test("Sign in with Fake Mail → this mailbox's connections, none of another's; no grant made; sign out", async () => {
    await connectAs("alice");
    await connectAs("alice");
    await connectAs("bob");
    const grantsBefore = await counts();
    const issuedBefore = h.oauth.issued().length;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${srv.baseUrl}/account`);
    await page.getByRole("button", { name: "Sign in with Fake Mail" }).click();
    await page.waitForURL((u) => u.href.startsWith(`${h.oauth.url}/authorize?`));
    await page.fill("#login", h.dovecot.users.alice.email);
    await Promise.all([page.waitForURL(`${srv.baseUrl}/account`), page.click("#accept")]);
    const alert = await page.locator("p.error").count() ? await page.textContent("p.error") : null;
    expect(alert).toBeNull();
    expect(await page.textContent("h1")).toContain(h.dovecot.users.alice.email);
    expect(await page.locator("section.conn").count()).toBe(2);
    expect(await page.textContent("body")).not.toContain(h.dovecot.users.bob.email);
    // A session, not a connection: no grant was issued, and the provider's tokens were kept nowhere.
    expect(await counts()).toBe(grantsBefore);
    expect(h.oauth.issued().length).toBeGreaterThan(issuedBefore);
    const stored = JSON.stringify(await srv.deps.db.q`SELECT * FROM upstream_flows`);
    expect(stored).toBe("[]");
    await loadedAgain(page, `${srv.baseUrl}/account`, () => page.getByRole("button", { name: "Sign out" }).click());
    expect(await page.locator("#account-sign-in").count()).toBe(1);
    await context.close();
  }, 60_000);
});
