// Headline test for open registration: the official MCP SDK client's auth() with no client information at
// all, as Claude Code, VS Code or ChatGPT start. It discovers (PRM → RFC 8414), registers itself (RFC 7591)
// as a public client with a loopback redirect, runs authorize → setup form → token, and calls a tool.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { getHarness, type Harness } from "../support/harness.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "../support/app.ts";
import { aliceFields, formIds, REDIRECT } from "./flow.ts";

/** A native app's loopback callback; nothing listens there: the test reads the 303's Location instead. */
const CALLBACK = `http://127.0.0.1:${40000 + (process.pid % 20000)}/callback`;

class UnregisteredProvider implements OAuthClientProvider {
  readonly stateValue = randomBytes(16).toString("hex");
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  formHtml?: string;
  callback?: URL;

  constructor(private readonly h: Harness, initial?: OAuthClientInformationMixed, private readonly redirect = CALLBACK) {
    this.info = initial;
  }

  get redirectUrl() { return this.redirect; }
  get clientMetadata(): OAuthClientMetadata {
    return { redirect_uris: [this.redirect], client_name: "SDK registration test", token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] };
  }
  state() { return this.stateValue; }
  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  saveCodeVerifier(v: string) { this.verifier = v; }
  codeVerifier() {
    if (!this.verifier) throw new Error("no verifier saved");
    return this.verifier;
  }

  /** The person in the browser: read the form, fill it in, submit; the 303 is the callback. */
  async redirectToAuthorization(url: URL) {
    const page = await fetch(url);
    if (page.status !== 200) throw new Error(`authorize: ${page.status} ${await page.text()}`);
    this.formHtml = await page.text();
    const res = await fetch(new URL("/oauth/connect", url), {
      method: "POST", body: new URLSearchParams(aliceFields(this.h, formIds(this.formHtml))), redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
    });
    if (res.status !== 303) throw new Error(`connect: ${res.status}`);
    this.callback = new URL(res.headers.get("location")!);
  }
}

let h: Harness;
let server: TestServer;
const seen: Array<{ method: string; url: string; body: string; authorization: string | null }> = [];
const recordingFetch: typeof fetch = Object.assign(async (input: string | URL | Request, init?: RequestInit) => {
  const req = new Request(input, init);
  seen.push({ method: req.method, url: req.url, body: await req.clone().text(), authorization: req.headers.get("authorization") });
  return fetch(req);
}, { preconnect: fetch.preconnect });

beforeAll(async () => {
  h = await getHarness();
  server = await startTestServer({ config: { openRegistration: true } });
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

describe("official SDK client with open registration and no client information", () => {
  test("discovers, registers, authorizes through the setup form, exchanges the code and calls a tool", async () => {
    const provider = new UnregisteredProvider(h);
    const { baseUrl, mcpUrl } = server;
    expect(await auth(provider, { serverUrl: mcpUrl, fetchFn: recordingFetch })).toBe("REDIRECT");

    // RFC 7591 registration at the advertised endpoint, as a public client with our loopback redirect.
    const registration = seen.find((s) => s.url === `${baseUrl}/oauth/register`)!;
    expect(registration.method).toBe("POST");
    expect(JSON.parse(registration.body)).toMatchObject({ redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" });
    const info = provider.info as { client_id: string; client_secret?: string; token_endpoint_auth_method?: string };
    expect(info.client_id).toMatch(/^dyn-/);
    expect(info.client_secret).toBeUndefined();
    expect(info.token_endpoint_auth_method).toBe("none");

    // The form named the self-declared client and the loopback host; the 303 went there with the state.
    expect(provider.formHtml).toContain('<q class="declared">SDK registration test</q>');
    expect(provider.formHtml).toContain("this server has not checked it");
    expect(provider.callback!.origin + provider.callback!.pathname).toBe(CALLBACK);
    expect(provider.callback!.searchParams.get("state")).toBe(provider.stateValue);

    seen.length = 0;
    const code = provider.callback!.searchParams.get("code")!;
    expect(await auth(provider, { serverUrl: mcpUrl, authorizationCode: code, fetchFn: recordingFetch })).toBe("AUTHORIZED");
    const form = new URLSearchParams(seen.find((s) => s.url === `${baseUrl}/oauth/token`)!.body);
    expect(form.get("client_id")).toBe(info.client_id);
    expect(form.get("client_secret")).toBeNull(); // "none": PKCE is the proof
    expect(provider.saved!.access_token).toMatch(/^[0-9a-f]{64}$/);

    // The token works for MCP: the SDK's transport sends it from the provider.
    const client = new Client({ name: "sdk-registration-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    try {
      const result = await client.callTool({ name: "list_mailboxes", arguments: {} });
      expect(result.isError).toBeFalsy();
      const paths = (result.structuredContent as { mailboxes: Array<{ path: string }> }).mailboxes.map((m) => m.path);
      expect(paths).toContain("INBOX");
    } finally {
      await client.close();
    }
  });

  test("a pasted client id and secret (no auth method given) still use client_secret_post with the switch on", async () => {
    // Like Claude.ai's advanced settings: the SDK picks the method from the metadata, which now lists
    // "none" too; with a secret it must still choose client_secret_post, never Basic (docs/design.md §2).
    const pasted = { client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET };
    const provider = new UnregisteredProvider(h, pasted, REDIRECT);
    const { baseUrl, mcpUrl } = server;
    seen.length = 0;
    expect(await auth(provider, { serverUrl: mcpUrl, fetchFn: recordingFetch })).toBe("REDIRECT");
    expect(seen.some((s) => s.url === `${baseUrl}/oauth/register`)).toBe(false);
    expect(provider.formHtml).not.toContain("has not checked");
    const code = provider.callback!.searchParams.get("code")!;
    expect(await auth(provider, { serverUrl: mcpUrl, authorizationCode: code, fetchFn: recordingFetch })).toBe("AUTHORIZED");
    const tokenCall = seen.find((s) => s.url === `${baseUrl}/oauth/token`)!;
    expect(tokenCall.authorization).toBeNull();
    expect(new URLSearchParams(tokenCall.body).get("client_secret")).toBe(TEST_CLIENT_SECRET);
  });
});
