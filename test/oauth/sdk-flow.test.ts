// Headline test: the official MCP SDK client's OAuth flow, end to end, against a listening server.
// Discovery (RFC 9728 PRM → RFC 8414 metadata), authorize with PKCE + resource, the setup form posted with
// the harness Dovecot credentials, the 303 back with code and state, the token exchange with
// client_secret_post, then the token passes the Bearer guard.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { checkBearer } from "../../src/oauth/protocol/bearer.ts";
import { freePort } from "../support/dovecot.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, testApp } from "../support/app.ts";
import { aliceFields, formIds, REDIRECT } from "./flow.ts";

interface Seen { method: string; url: string; body: string; authorization: string | null }

class ScriptedProvider implements OAuthClientProvider {
  readonly stateValue = randomBytes(16).toString("hex");
  verifier?: string;
  saved?: OAuthTokens;
  authorizationUrl?: URL;
  callback?: URL;

  constructor(private readonly h: Harness) {}

  get redirectUrl() { return REDIRECT; }
  get clientMetadata(): OAuthClientMetadata {
    return { redirect_uris: [REDIRECT], client_name: "sdk-flow test", token_endpoint_auth_method: "client_secret_post" };
  }
  state() { return this.stateValue; }
  clientInformation(): OAuthClientInformationMixed {
    return { client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET, token_endpoint_auth_method: "client_secret_post" };
  }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  saveCodeVerifier(v: string) { this.verifier = v; }
  codeVerifier() {
    if (!this.verifier) throw new Error("no verifier saved");
    return this.verifier;
  }

  /** What a person does in the browser: open the form, fill it in, submit; we follow nothing further. */
  async redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
    const page = await fetch(url);
    if (page.status !== 200) throw new Error(`authorize: ${page.status} ${await page.text()}`);
    const fields = aliceFields(this.h, formIds(await page.text()));
    const res = await fetch(new URL("/oauth/connect", url), {
      method: "POST", body: new URLSearchParams(fields), redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
    });
    if (res.status !== 303) throw new Error(`connect: ${res.status}`);
    this.callback = new URL(res.headers.get("location")!);
  }
}

let h: Harness;
let base: string;
let server: ReturnType<typeof testApp>;
const seen: Seen[] = [];

const recordingFetch: typeof fetch = Object.assign(async (input: string | URL | Request, init?: RequestInit) => {
  const req = new Request(input, init);
  seen.push({ method: req.method, url: req.url, body: await req.clone().text(), authorization: req.headers.get("authorization") });
  return fetch(req);
}, { preconnect: fetch.preconnect });

beforeAll(async () => {
  h = await getHarness();
  const port = await freePort();
  base = `http://localhost:${port}`; // the exact origin the client is given (docs/design.md §2)
  server = testApp({ baseUrl: base });
  server.app.listen({ port, hostname: "127.0.0.1" });
});

afterAll(async () => {
  await server.app.stop(true);
});

describe("official SDK client OAuth flow", () => {
  test("discovers, authorizes through the setup form, exchanges the code, and the token works", async () => {
    const provider = new ScriptedProvider(h);
    const serverUrl = `${base}/mcp`;

    expect(await auth(provider, { serverUrl, fetchFn: recordingFetch })).toBe("REDIRECT");

    // Discovery went through protected resource metadata, then the authorization server metadata.
    const urls = seen.map((s) => s.url);
    expect(urls[0]).toBe(`${base}/.well-known/oauth-protected-resource/mcp`);
    expect(urls).toContain(`${base}/.well-known/oauth-authorization-server`);

    // The authorize URL the SDK built: our endpoint, S256, our resource, the state we supplied.
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.origin + authUrl.pathname).toBe(`${base}/oauth/authorize`);
    expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authUrl.searchParams.get("resource")).toBe(`${base}/mcp`);
    expect(authUrl.searchParams.get("scope")).toBe("email:read email:write");

    // The 303 brought the code and the unchanged state back to the redirect URI.
    const callback = provider.callback!;
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get("state")).toBe(provider.stateValue);
    const code = callback.searchParams.get("code")!;
    expect(code).toMatch(/^[A-Za-z0-9]{48}$/);

    seen.length = 0;
    expect(await auth(provider, { serverUrl, authorizationCode: code, fetchFn: recordingFetch })).toBe("AUTHORIZED");

    // client_secret_post: credentials in the form body, no Basic header; resource sent again.
    const tokenCall = seen.find((s) => s.url === `${base}/oauth/token`)!;
    const form = new URLSearchParams(tokenCall.body);
    expect(tokenCall.authorization).toBeNull();
    expect(form.get("client_id")).toBe(TEST_CLIENT_ID);
    expect(form.get("client_secret")).toBe(TEST_CLIENT_SECRET);
    expect(form.get("grant_type")).toBe("authorization_code");
    expect(form.get("resource")).toBe(`${base}/mcp`);

    const tokens = provider.saved!;
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.access_token).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.expires_in).toBe(2592000);
    expect(tokens.scope).toBe("email:read email:write");

    const guard = await checkBearer(server.grants, base, `Bearer ${tokens.access_token}`);
    expect(guard.ok).toBe(true);
    if (guard.ok) expect(guard.auth.record.resource).toBe(`${base}/mcp`);
  });

  test("the SDK surfaces a replayed code as invalid_grant", async () => {
    const provider = new ScriptedProvider(h);
    const serverUrl = `${base}/mcp`;
    await auth(provider, { serverUrl });
    const code = provider.callback!.searchParams.get("code")!;
    await auth(provider, { serverUrl, authorizationCode: code });
    const first = provider.saved!.access_token;
    // The SDK retries once after invalid_grant, then gives up with the error.
    await expect(auth(provider, { serverUrl, authorizationCode: code })).rejects.toThrow();
    expect(await server.grants.findToken(first)).toBeNull();
  });
});
