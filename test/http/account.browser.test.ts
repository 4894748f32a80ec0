// The owner's page in Chromium (docs/owner.md §7), without JavaScript needed: sign in with the app
// password, two connections of this mailbox and none of another's, revoke one (its next /mcp call
// is 401), change the other's sending (its next send is held for the person, not sent), sign out.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { fillAlice, launchChromium, loadedAgain } from "../support/browser.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { obtainToken } from "../oauth/flow.ts";

let h: Harness;
let srv: TestServer;
let browser: Browser;

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await srv?.stop();
}, 30_000);

async function connectAs(who: "alice" | "bob", send: string): Promise<string> {
  const u = h.dovecot.users[who];
  return (await obtainToken(srv.deps.app, h, { email: u.email, password: u.pass, send })).token;
}

const mcpStatus = async (token: string) => (await fetch(srv.mcpUrl, {
  method: "POST",
  headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
})).status;

async function signIn(page: Page) {
  await page.goto(`${srv.baseUrl}/account`);
  await fillAlice(page, h);
  // The page is at /account before and after: wait for its GET to load again, not for the URL.
  await loadedAgain(page, `${srv.baseUrl}/account`, () => page.keyboard.press("Enter")); // the keyboard submits the form
}

describe("/account in Chromium", () => {
  test("sign in, see this mailbox's two apps, revoke one (401 at /mcp), change sending (held), sign out", async () => {
    const older = await connectAs("alice", "direct");
    const newer = await connectAs("alice", "direct");
    await connectAs("bob", "direct");
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page);
    expect(await page.textContent("h1")).toContain(h.dovecot.users.alice.email);
    expect(await page.locator("section.conn").count()).toBe(2);
    expect(await page.textContent("body")).not.toContain(h.dovecot.users.bob.email);
    expect(await page.textContent("body")).toContain("name not checked by this server");
    // Readable on a phone: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    // Revoke the newest (listed first): asked first, then done; its token is refused at once.
    await page.locator("section.conn").first().getByRole("button", { name: "Revoke this app's access" }).click();
    await loadedAgain(page, `${srv.baseUrl}/account`, () => page.getByRole("button", { name: "Yes, do it" }).click());
    expect(await page.locator("section.conn").count()).toBe(1);
    expect(await mcpStatus(newer)).toBe(401);
    expect(await mcpStatus(older)).not.toBe(401);

    // Sending: ask before every email; the app's next send is held as a draft, nothing reaches SMTP.
    await page.locator("section.conn select").selectOption("always");
    await page.getByRole("button", { name: "Change sending" }).click();
    await loadedAgain(page, `${srv.baseUrl}/account`, () => page.getByRole("button", { name: "Yes, do it" }).click());
    expect(await page.textContent("section.conn")).toContain("ask before every send");
    const client = await connectClient(srv.mcpUrl, older);
    try {
      const before = h.smtp.messages.length;
      const sent = await callOk<{ status: string }>(client, "send_email", { to: "bob@example.test", subject: "owner page: held", text: "x" });
      expect(sent.status).toBe("held_as_draft");
      expect(h.smtp.messages.length).toBe(before);
    } finally {
      await client.close();
    }
    await page.reload();
    expect(await page.textContent("body")).toContain("to bob@example.test; in Drafts");
    expect(await page.textContent("#held")).toContain("“owner page: held”");
    expect(await page.textContent("#activity")).toContain("owner:revoke");

    // Sent or deleted in the mail app, the page cannot know: the person dismisses it (asked first).
    await page.locator("#held").getByRole("button", { name: "Dismiss" }).click();
    await loadedAgain(page, `${srv.baseUrl}/account`, () => page.getByRole("button", { name: "Yes, do it" }).click());
    expect(await page.textContent("#held")).not.toContain("owner page: held");
    expect(await page.textContent("#held")).toContain("None.");

    await loadedAgain(page, `${srv.baseUrl}/account`, () => page.getByRole("button", { name: "Sign out" }).click());
    expect(await page.locator("#account-sign-in").count()).toBe(1);
    await context.close();
  }, 60_000);

  test("an address to send as and its own signature, set on the page: a message from it carries that signature once", async () => {
    const token = await connectAs("alice", "direct");
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page);
    await page.locator("#identities summary").click(); // a closed <details> until opened
    await page.fill("#send_as", "Alice at Work <alice.work@example.test>");
    await page.getByRole("button", { name: "Save addresses and signature" }).click();
    await loadedAgain(page, `${srv.baseUrl}/account`, () => page.getByRole("button", { name: "Yes, do it" }).click());
    await page.fill("#signature-0", "Alice, **work** desk");
    await page.getByRole("button", { name: "Save this signature" }).click();
    await loadedAgain(page, `${srv.baseUrl}/account`, () => page.getByRole("button", { name: "Yes, do it" }).click());
    expect(await page.inputValue("#signature-0")).toBe("Alice, **work** desk");
    expect(await page.textContent("#activity")).toContain("owner:signature");
    await context.close();
    const client = await connectClient(srv.mcpUrl, token);
    try {
      const before = h.smtp.messages.length;
      await callOk(client, "send_email", { to: "bob@example.test", from: "alice.work@example.test", subject: "from the work address", text: "Hello" });
      const raw = h.smtp.messages.slice(before).map((m) => m.raw.toString("utf8")).join("");
      expect(raw).toContain("alice.work@example.test");
      expect(raw.split("-- \r\nAlice, work desk").length - 1).toBe(1); // the text part: the delimiter line, then the signature once
    } finally {
      await client.close();
    }
  }, 60_000);

  test("the page refuses to be framed", async () => {
    const res = await fetch(`${srv.baseUrl}/account`);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});
