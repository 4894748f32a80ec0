// Impersonation on the setup page (issue 19, item 9): a self-registered client_name written to look
// like the page's own words — its sentence, a host to trust, a "✓ Verified app" badge, closing quotes —
// must not pass for them in a real browser. The page's sentence names only the host the code goes to;
// the name sits in its own box, quoted by the page, quotation marks neutralised, at most 64 characters.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { startBrowserApp, type BrowserApp } from "../support/browser.ts";
import { DECLARED_NAME_MAX } from "../../src/views/declared-name.ts";
import { authorizeQuery, newVerifier } from "./flow.ts";
import { registerOk } from "./register-flow.ts";

let base: string;
let server: BrowserApp["server"];
let browser: Browser;
let running: BrowserApp | undefined;

beforeAll(async () => {
  running = await startBrowserApp({ openRegistration: true });
  ({ base, server, browser } = running);
}, 60_000);

afterAll(() => running?.stop(), 30_000);

// The attacker's client returns to its own loopback port; its name claims claude.ai and a badge, within
// the 100 characters registration takes.
const REAL_HOST = "localhost:47123";
const FORGED = "Claude” returning to claude.ai, is asking to read and search email ✓ Verified app “Claude";
const QUOTE_MARKS = /["“”„‟«»‹›〝〞＂]/;

test("a name carrying the page's own phrases cannot pass for them", async () => {
  expect(FORGED.length).toBeLessThanOrEqual(100);
  const client = await registerOk(server.app, { client_name: FORGED, redirect_uris: [`http://${REAL_HOST}/callback`] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const res = await page.goto(`${base}/oauth/authorize?${authorizeQuery(newVerifier(), {
    client_id: client.client_id, redirect_uri: `http://${REAL_HOST}/callback`,
  })}`);
  expect(res?.status()).toBe(200);

  // The page's own sentence: the real host, and nothing the client wrote.
  const sentence = (await page.textContent(".who"))!;
  expect(await page.textContent(".who .host")).toBe(REAL_HOST);
  expect(sentence).toStartWith(`${REAL_HOST} (an app on this computer) is asking to read, search, draft and send email`);
  expect(sentence).not.toContain("claude.ai");
  expect(sentence).not.toContain("Verified");

  // The name: only inside its box, cut, with no quotation mark of its own to close the page's quotes.
  const name = (await page.textContent("q.declared"))!;
  expect(Array.from(name).length).toBeLessThanOrEqual(DECLARED_NAME_MAX);
  expect(name).toEndWith("…");
  expect(name).not.toMatch(QUOTE_MARKS);
  const outside = await page.evaluate(() => {
    const clone = document.body.cloneNode(true) as HTMLElement;
    clone.querySelectorAll("q.declared").forEach((q) => q.remove());
    return clone.innerText;
  });
  expect(outside).not.toContain("claude.ai");
  expect(outside).not.toContain("Verified");

  // Visibly not the page's text: monospace, a dashed box, its own background, the page's own quotes
  // drawn around it, on a line below the sentence that says nobody checked it.
  const look = await page.$eval("q.declared", (q) => {
    const s = getComputedStyle(q);
    const body = getComputedStyle(document.querySelector(".who")!);
    return {
      font: s.fontFamily, bodyFont: body.fontFamily, border: s.borderTopStyle, background: s.backgroundColor,
      before: getComputedStyle(q, "::before").content, after: getComputedStyle(q, "::after").content, quotes: s.quotes,
      below: q.getBoundingClientRect().top >= document.querySelector(".who")!.getBoundingClientRect().bottom,
    };
  });
  expect(look.font).toContain("monospace");
  expect(look.font).not.toBe(look.bodyFont);
  expect(look.border).toBe("dashed");
  expect(look.background).not.toBe("rgba(0, 0, 0, 0)");
  expect([look.before, look.after, look.quotes]).toEqual(["open-quote", "close-quote", '"“" "”"']);
  expect(look.below).toBe(true);
  expect(await page.textContent(".declared-line")).toContain("this server has not checked it. Go by the address above.");
  await context.close();
});
