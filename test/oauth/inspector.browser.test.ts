// Headline test for open registration with a real client: MCP Inspector 2.x (npm @modelcontextprotocol/
// inspector, started on loopback) in headless Chromium connects to our server with no client id entered.
// It discovers, registers itself (RFC 7591) with its own origin's callback — http://127.0.0.1:PORT/oauth/
// callback, which is not on the allowlist and is accepted as loopback — sends the browser to our setup
// form, exchanges the code and is connected.
import { countRows } from "../support/stores.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chromium, type Browser } from "playwright-core";
import { getHarness, type Harness } from "../support/harness.ts";
import { fillAlice } from "../support/browser.ts";
import { startInspector, type Inspector } from "../support/inspector.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";

const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

let h: Harness;
let server: TestServer;
let inspector: Inspector;
let browser: Browser;

beforeAll(async () => {
  h = await getHarness();
  server = await startTestServer({ config: { openRegistration: true } });
  inspector = await startInspector(server.mcpUrl);
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await inspector?.stop();
  await server?.stop();
}, 30_000);

describe("MCP Inspector in headless Chromium, registration on", () => {
  test("connects by URL alone: registers, the setup form, back to the Inspector, connected", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // Its UI asks Google Fonts for a typeface; there is no internet here, and it does not matter.
    await page.route("https://fonts.googleapis.com/**", (route) => route.abort());
    await page.goto(inspector.url);
    await page.getByText("Disconnected").waitFor();

    // The connect switch of the one server card; no client id anywhere.
    await Promise.all([
      page.waitForURL((u) => u.href.startsWith(`${server.baseUrl}/oauth/authorize?`), { timeout: 30_000 }),
      page.locator("input[type=checkbox]").first().click({ force: true }),
    ]);
    const authorizeUrl = new URL(page.url());
    expect(authorizeUrl.searchParams.get("client_id")).toMatch(/^dyn-/);
    expect(authorizeUrl.searchParams.get("redirect_uri")).toBe(`${inspector.origin}/oauth/callback`);
    expect(await page.textContent(".who .host")).toBe(new URL(inspector.origin).host);
    expect(await page.textContent("q.declared")).toBe("MCP Inspector");
    expect(await page.textContent(".declared-line")).toContain("has not checked it");

    await fillAlice(page, h);
    await Promise.all([
      page.waitForURL((u) => u.href.startsWith(`${inspector.origin}/`), { timeout: 30_000 }),
      page.click("#connect"),
    ]);

    // The Inspector exchanged the code and opened an MCP session with the token.
    await page.getByText("Connected", { exact: true }).first().waitFor({ timeout: 30_000 });
    const db = server.deps.db;
    expect([...(await db.q`SELECT client_name AS name, auth_method AS method FROM clients`)])
      .toEqual([{ name: "MCP Inspector", method: "none" }]);
    expect(await countRows(db, "tokens")).toBe(1);
    expect((await server.deps.sessions.size())).toBeGreaterThan(0);
    // Its Tools view lists our tools, and a call runs against the harness Dovecot.
    await page.getByText("Tools", { exact: true }).first().click();
    await page.getByText("list_mailboxes").first().click();
    await page.getByText("Execute Tool", { exact: true }).click();
    await page.getByText(/INBOX \(\\Inbox\): \d+ messages/).first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: "/tmp/inspector-tools.png", fullPage: true });
    await context.close();
  }, 120_000);
});
