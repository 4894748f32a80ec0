// GET /: the front door in headless Chromium (no CSP violation, readable at phone width) and as JSON;
// the setup page's security headers and CSP; never the client secret.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { SECURITY_HEADERS } from "../../src/http/plugins/security.ts";
import { startBrowserApp, type BrowserApp } from "../support/browser.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "../support/app.ts";

let base: string;
let server: BrowserApp["server"];
let browser: Browser;
let running: BrowserApp | undefined;

beforeAll(async () => {
  running = await startBrowserApp({ version: "9.8.7" });
  ({ base, server, browser } = running);
}, 60_000);

afterAll(() => running?.stop(), 30_000);

describe("GET /", () => {
  test("in Chromium: running, version, MCP URL, each client's steps, /health; no secret, no CSP violation", async () => {
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const cspErrors: string[] = [];
      page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text()); });
      const res = await page.goto(`${base}/`);
      expect(res?.status()).toBe(200);
      const text = (await page.textContent("body"))!;
      expect(await page.textContent("h1")).toBe("mailbox-mcp is running");
      for (const s of ["9.8.7", `${base}/mcp`, TEST_CLIENT_ID, "Claude.ai", "Claude Code", "MCP Inspector", "Settings ▸ OAuth Settings", "mailbox-mcp client"]) {
        expect(text).toContain(s);
      }
      expect(text).not.toContain(TEST_CLIENT_SECRET);
      expect(await page.getAttribute(`a[href="${base}/health"]`, "href")).toBe(`${base}/health`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      expect(cspErrors).toEqual([]);
      await page.screenshot({ path: `/tmp/front-door-${width}.png`, fullPage: true });
      await context.close();
    }
  }, 60_000);

  test("the setup page's headers: security headers, nonce CSP without script use, no-store", async () => {
    const res = await fetch(`${base}/`);
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(k)).toBe(v);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toMatch(/^default-src 'none'; style-src 'nonce-[^']+'; script-src 'nonce-[^']+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'none'");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).not.toContain("<script");
  });

  test("JSON when Accept prefers it", async () => {
    const res = await fetch(`${base}/`, { headers: { accept: "application/json" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const body = await res.json() as Record<string, unknown> & { clients: Array<{ title: string; steps: string[] }> };
    expect(body).toMatchObject({ status: "running", service: "mailbox-mcp", version: "9.8.7", mcp_url: `${base}/mcp`, health_url: `${base}/health`, client_id: TEST_CLIENT_ID });
    expect(body.clients.map((c) => c.title)).toEqual([
      "Claude.ai (Settings → Connectors → Add custom connector)", "Claude Code", "Codex CLI", "Gemini CLI",
      "MCP Inspector (npx @modelcontextprotocol/inspector)", "ChatGPT and VS Code",
    ]);
    expect(JSON.stringify(body)).not.toContain(TEST_CLIENT_SECRET);
    expect((await fetch(`${base}/`, { headers: { accept: "text/html, application/json" } })).headers.get("content-type")).toContain("text/html");
    expect((await fetch(`${base}/`, { method: "HEAD" })).status).toBe(200);
  });
});
