// A client that relies on PKCE alone (docs/design.md §3, OAuth 2.1 §4.1.1): Vercel's AI SDK (@ai-sdk/mcp)
// sends `state` only when the application's provider implements state(), and the providers in its own
// OAuth examples do not. With open registration such a client registers, signs in without state, gets
// its code back without state, and calls a tool; the configured client without state still gets the
// contract's 400.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { auth, createMCPClient, type OAuthClientInformation, type OAuthClientMetadata, type OAuthClientProvider, type OAuthTokens } from "@ai-sdk/mcp";
import { getHarness, type Harness } from "../support/harness.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";
import { aliceFields, authorizeQuery, formIds, newVerifier } from "./flow.ts";

const CALLBACK = `http://localhost:${40000 + ((process.pid + 7) % 20000)}/callback`;

/**
 * The shape of the AI SDK examples' in-memory provider: tokens, the code verifier, the client information,
 * the redirect URL and the metadata — and no state(). redirectToAuthorization plays the person at the
 * setup form and keeps the 303's Location, which the example's local callback server would receive.
 */
class InMemoryOAuthClientProvider implements OAuthClientProvider {
  private _tokens?: OAuthTokens;
  private _codeVerifier?: string;
  private _clientInformation?: OAuthClientInformation;
  authorizeUrl?: URL;
  callback?: URL;

  constructor(private readonly h: Harness) {}

  async tokens() { return this._tokens; }
  async saveTokens(tokens: OAuthTokens) { this._tokens = tokens; }
  async saveCodeVerifier(codeVerifier: string) { this._codeVerifier = codeVerifier; }
  async codeVerifier() {
    if (!this._codeVerifier) throw new Error("No code verifier saved");
    return this._codeVerifier;
  }
  async clientInformation() { return this._clientInformation; }
  async saveClientInformation(info: OAuthClientInformation) { this._clientInformation = info; }
  get redirectUrl() { return CALLBACK; }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "AI SDK MCP OAuth Example",
      redirect_uris: [CALLBACK],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  async redirectToAuthorization(url: URL) {
    this.authorizeUrl = url;
    const page = await fetch(url);
    if (page.status !== 200) throw new Error(`authorize: ${page.status} ${await page.text()}`);
    const res = await fetch(new URL("/oauth/connect", url), {
      method: "POST", redirect: "manual", body: new URLSearchParams(aliceFields(this.h, formIds(await page.text()))),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
    });
    if (res.status !== 303) throw new Error(`connect: ${res.status}`);
    this.callback = new URL(res.headers.get("location")!);
  }
}

let h: Harness;
let server: TestServer;

beforeAll(async () => {
  h = await getHarness();
  server = await startTestServer({ config: { openRegistration: true } });
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

describe("the AI SDK's example provider (no state) through registration", () => {
  test("registers, signs in without state, gets the code back without state, and calls a tool", async () => {
    const provider = new InMemoryOAuthClientProvider(h);
    expect(await auth(provider, { serverUrl: server.mcpUrl })).toBe("REDIRECT");

    expect(provider.authorizeUrl!.searchParams.has("state")).toBe(false);
    expect(provider.authorizeUrl!.searchParams.get("code_challenge_method")).toBe("S256");
    const callback = provider.callback!;
    expect(`${callback.origin}${callback.pathname}`).toBe(CALLBACK);
    expect(callback.searchParams.has("state")).toBe(false); // RFC 6749 §4.1.2: only when it was sent
    expect(callback.searchParams.get("iss")).toBe(server.baseUrl);

    const code = callback.searchParams.get("code")!;
    expect(await auth(provider, { serverUrl: server.mcpUrl, authorizationCode: code, callbackIssuer: callback.searchParams.get("iss")! }))
      .toBe("AUTHORIZED");

    const client = await createMCPClient({ transport: { type: "http", url: server.mcpUrl, authProvider: provider } });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("list_mailboxes");
      const result = await client.callTool({ name: "list_mailboxes", arguments: {} });
      expect(result.isError).toBeFalsy();
      const { mailboxes } = result.structuredContent as { mailboxes: Array<{ path: string }> };
      expect(mailboxes.map((m) => m.path)).toContain("INBOX");
    } finally {
      await client.close();
    }
  });

  test("the configured client without state still gets the contract's 400", async () => {
    const query = authorizeQuery(newVerifier(), { state: null });
    const res = await fetch(`${server.baseUrl}/oauth/authorize?${query}`, { headers: { accept: "application/json" } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_request", error_description: "state is required" });
  });
});
