// The review card, an MCP App (io.modelcontextprotocol/ui): served as a ui:// resource, rendered in
// headless Chromium inside a minimal host page that speaks the extension's postMessage protocol
// through its official AppBridge (test/support/app-host/host.ts), the host's tool calls made by the
// v2 SDK client against the real server. Its Send button sends the held message, once; Keep as
// draft leaves it; the app-only tool is offered only to hosts that render apps, marked so hosts keep
// it from the model, and refused to anyone else.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getToolUiResourceUri, isToolVisibilityAppOnly } from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import type { Browser, Page } from "playwright-core";
import { randomBytes } from "node:crypto";
import { REVIEW_CARD_URI } from "../../../src/mcp/confirm/review-card.ts";
import { appHostPage } from "../../support/app-host.ts";
import { launchChromium } from "../../support/browser.ts";
import { findBySubject } from "../../support/imap.ts";
import { MODERN } from "../../support/mcp-client-v2.ts";
import { issueTestGrant } from "../../support/token.ts";
import { until } from "../../support/until.ts";
import { aliceServer } from "../../support/alice-server.ts";

const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
let browser: Browser;
const fx = aliceServer<Client>();
const tag = () => randomBytes(4).toString("hex");

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
}, 30_000);

async function token(): Promise<string> {
  const account = fx.account();
  return (await issueTestGrant(fx.srv.deps, account, "email:read email:write", undefined, "new_recipients")).token;
}

async function client(bearer: string, capabilities: Record<string, unknown>, modern = false): Promise<Client> {
  const c = new Client({ name: "host", version: "0" }, { capabilities, ...(modern ? { versionNegotiation: { mode: { pin: MODERN } } } : {}) });
  await c.connect(new StreamableHTTPClientTransport(new URL(fx.srv.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
  fx.open.push(c);
  return c;
}

const callTool = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => r.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
const delivered = (subject: string) => fx.h.smtp.messages.filter((m) => m.raw.toString("latin1").includes(subject)).length;

/** A send_email to a stranger through a host that renders apps: held for review, with the card's token. */
async function held(host: Client) {
  const args = { to: `Stranger <stranger-${tag()}@example.net>`, subject: `review ${tag()}`, text: "Hello,\nplease find the plan below." };
  const result = await callTool(host, "send_email", args);
  expect(result.structuredContent).toMatchObject({ status: "held_as_draft", decision: "held_as_draft" });
  expect((result.structuredContent as { reason: string }).reason).toContain("shown to them for review with Send and Keep-as-draft buttons");
  const review = (result._meta as Record<string, { token: string }>)["mailbox-mcp/review"];
  expect(typeof review?.token).toBe("string");
  return { args, result, review: review! };
}

/** The host page in Chromium rendering the card for that call; the card's tool calls go through `host`. */
async function render(host: Client, toolInput: Record<string, unknown>, toolResult: CallToolResult): Promise<Page> {
  const res = await host.readResource({ uri: REVIEW_CARD_URI });
  const [content] = res.contents as Array<{ mimeType: string; text: string }>;
  expect(content!.mimeType).toBe("text/html;profile=mcp-app");
  const page = await (await browser.newContext()).newPage();
  await page.exposeFunction("hostCallTool", (params: { name: string; arguments: Record<string, unknown> }) => host.callTool(params));
  await page.setContent(await appHostPage());
  await page.evaluate((o) => (window as unknown as { startHost(x: unknown): Promise<void> }).startHost(o), { html: content!.text, toolInput, toolResult });
  return page;
}

describe("the app-only tool", () => {
  test("offered only to hosts that render apps, visible to the app alone; the model-facing list lacks it; others are refused it", async () => {
    const bearer = await token();
    const plain = await client(bearer, {});
    expect((await plain.listTools()).tools.map((t) => t.name)).not.toContain("confirm_send");
    const refused = await plain.callTool({ name: "confirm_send", arguments: { review: "x", decision: "send" } }).then((r) => r, (e: Error) => e);
    expect(refused instanceof Error ? refused.message : textOf(refused as CallToolResult)).toMatch(/confirm_send/);
    // The card itself is listed and readable only for hosts that render apps.
    expect((await plain.listResources()).resources.map((r) => r.uri)).not.toContain(REVIEW_CARD_URI);
    expect(await plain.readResource({ uri: REVIEW_CARD_URI }).then(() => "read", () => "refused")).toBe("refused");
    for (const modern of [false, true]) {
      const host = await client(bearer, UI, modern);
      expect((await host.listResources()).resources).toEqual([expect.objectContaining({ uri: REVIEW_CARD_URI, mimeType: "text/html;profile=mcp-app" })]);
      const tools = (await host.listTools()).tools;
      const confirm = tools.find((t) => t.name === "confirm_send");
      expect(confirm && isToolVisibilityAppOnly(confirm)).toBe(true);
      expect(getToolUiResourceUri(tools.find((t) => t.name === "send_email")!)).toBe(REVIEW_CARD_URI);
      const modelFacing = tools.filter((t) => !isToolVisibilityAppOnly(t)).map((t) => t.name);
      expect(modelFacing).toContain("send_email");
      expect(modelFacing).not.toContain("confirm_send");
    }
  });
});

describe("the review card in headless Chromium", () => {
  test("shows the held message and its Send button sends it, once; the draft leaves Drafts for Sent", async () => {
    const host = await client(await token(), UI);
    const { args, result, review } = await held(host);
    expect(delivered(args.subject)).toBe(0);
    const page = await render(host, args, result);
    const card = page.frameLocator("#app");
    await card.getByText("Send this email?").waitFor();
    await expect(card.locator("dd").filter({ hasText: "(new: never written to before)" }).count()).resolves.toBe(1);
    await expect(card.locator("pre").textContent()).resolves.toContain("please find the plan below");
    await card.locator("#send").click();
    await until(async () => (await card.locator("#status").getAttribute("data-outcome")) !== null, { what: "the card to show the outcome" });
    expect(await card.locator("#status").getAttribute("data-outcome")).toBe("sent");
    expect(await card.locator("#status").textContent()).toContain("Sent after the person confirmed it");
    expect(delivered(args.subject)).toBe(1);
    expect(await findBySubject(fx.imap, "Drafts", args.subject)).toHaveLength(0);
    expect(await findBySubject(fx.imap, "Sent", args.subject)).toHaveLength(1);
    expect(await page.evaluate(() => (window as unknown as { hostLog: string[] }).hostLog)).toEqual(["initialized", "tools/call confirm_send"]);
    // The token is single-use: the same answer again sends nothing.
    const again = await callTool(host, "confirm_send", { review: review.token, decision: "send" });
    expect(textOf(again)).toContain("already answered");
    // And the model's own retry of the original request gets the outcome, not a second copy.
    expect((await callTool(host, "send_email", args)).structuredContent).toMatchObject({ status: "sent", decision: "repeat" });
    expect(delivered(args.subject)).toBe(1);
    await page.context().close();
  }, 60_000);

  test("Keep as draft: nothing sent, the draft stays", async () => {
    const host = await client(await token(), UI);
    const { args, result } = await held(host);
    const page = await render(host, args, result);
    const card = page.frameLocator("#app");
    await card.locator("#keep").click();
    await until(async () => (await card.locator("#status").getAttribute("data-outcome")) !== null, { what: "the card to show the outcome" });
    expect(await card.locator("#status").getAttribute("data-outcome")).toBe("held_as_draft");
    expect(delivered(args.subject)).toBe(0);
    expect(await findBySubject(fx.imap, "Drafts", args.subject)).toHaveLength(1);
    await page.context().close();
  }, 60_000);

  test("a card's token used by another connection, or altered: refused, nothing sent", async () => {
    const { args, review } = await held(await client(await token(), UI));
    const other = await client(await token(), UI);
    expect(textOf(await callTool(other, "confirm_send", { review: review.token, decision: "send" }))).toContain("not valid here");
    const mine = fx.open.at(-2)!;
    const altered = review.token.slice(0, -3) + (review.token.endsWith("AAA") ? "BBB" : "AAA");
    expect(textOf(await callTool(mine, "confirm_send", { review: altered, decision: "send" }))).toContain("not valid here");
    expect(delivered(args.subject)).toBe(0);
  });
});
