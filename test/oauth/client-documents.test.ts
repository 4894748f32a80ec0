// Client ID Metadata Documents (docs/oauth.md §11, docs/design.md §3): a client whose client_id is the URL
// of its metadata document signs in with no registration; the document is fetched under the public-
// address rules of mail hosts, bounded in time and size, checked, and cached per Cache-Control up to 24 h.
// The documents come from a plain-HTTP test server on loopback, which the tests' MAILBOX_MCP_ALLOW_PRIVATE_HOSTS lets through.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Config } from "../../src/config.ts";
import { freshFor } from "../../src/oauth/protocol/documents/documents.ts";
import { testDeps, type TestOverrides } from "../support/app.ts";
import { startDocumentServer, type DocumentServer } from "../support/document-server.ts";
import { getHarness } from "../support/harness.ts";
import { connectClient, callOk, startTestServer } from "../support/mcp-client.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, tokenFields } from "./flow.ts";

const JSON_ACCEPT = { accept: "application/json" };
const CALLBACK = "http://127.0.0.1/callback";
let docs: DocumentServer;

/** A good document for `path`: its own URL as client_id, a loopback callback, a name. */
const good = (path: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  docs.serve(path, { client_id: docs.url(path), client_name: "Doc App", redirect_uris: [CALLBACK], token_endpoint_auth_method: "none", ...extra }, headers);

function app(overrides: Partial<Config> = {}, documents: TestOverrides["documents"] = {}) {
  return testDeps({ clientMetadataDocuments: true, ...overrides }, { documents });
}

const asClient = (clientId: string, more: Record<string, string | null> = {}) =>
  authorizeQuery(newVerifier(), { client_id: clientId, redirect_uri: "http://127.0.0.1:49769/callback", state: null, ...more });

async function refusal(t: ReturnType<typeof app>, clientId: string): Promise<{ status: number; error: string; error_description: string }> {
  const res = await authorize(t.app, asClient(clientId), JSON_ACCEPT);
  return { status: res.status, ...((await res.json()) as { error: string; error_description: string }) };
}

beforeAll(() => {
  docs = startDocumentServer();
});
afterAll(async () => {
  await docs?.stop();
});

describe("sign-in with a client metadata document", () => {
  test("authorize without state → the form names the document's host → code → token without a secret → a tool call", async () => {
    const h = await getHarness();
    const clientId = good("/app.json", { client_name: "<b>Doc</b> App" });
    const server = await startTestServer({ config: { clientMetadataDocuments: true } });
    try {
      const verifier = newVerifier();
      const redirect = "http://127.0.0.1:49769/callback";
      const query = authorizeQuery(verifier, { client_id: clientId, redirect_uri: redirect, state: null });
      const page = await fetch(`${server.baseUrl}/oauth/authorize?${query}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`published by <strong class="host">${new URL(docs.origin).host}</strong>`);
      expect(html).toContain('<q class="declared">&lt;b&gt;Doc&lt;/b&gt; App</q>');
      expect(html).toContain('<strong class="host">127.0.0.1:49769</strong>');

      const connect = await fetch(`${server.baseUrl}/oauth/connect`, {
        method: "POST", redirect: "manual", body: new URLSearchParams(aliceFields(h, formIds(html))),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(connect.status).toBe(303);
      const location = new URL(connect.headers.get("location")!);
      expect(`${location.origin}${location.pathname}`).toBe(redirect);
      expect(location.searchParams.has("state")).toBe(false);

      const token = await fetch(`${server.baseUrl}/oauth/token`, {
        method: "POST", body: new URLSearchParams(tokenFields(location.searchParams.get("code")!, verifier, { client_id: clientId, client_secret: null, redirect_uri: redirect })),
      });
      expect(token.status).toBe(200);
      expect(docs.hits("/app.json")).toBe(1); // the token step trusts the code's binding, it does not fetch again
      const client = await connectClient(server.mcpUrl, ((await token.json()) as { access_token: string }).access_token);
      try {
        expect((await callOk(client, "list_mailboxes")).mailboxes.map((m: { path: string }) => m.path)).toContain("INBOX");
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });

  test("the form shown again after a wrong password still names the document's host and name", async () => {
    const h = await getHarness();
    const t = app();
    const page = await authorize(t.app, asClient(good("/again.json")));
    const res = await postForm(t.app, "/oauth/connect", aliceFields(h, formIds(await page.text()), { password: "wrong" }));
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain(`published by <strong class="host">${new URL(docs.origin).host}</strong>`);
    expect(html).toContain('<q class="declared">Doc App</q>');
    expect(docs.hits("/again.json")).toBe(1);
  });

  test("the metadata says so, and lists none for these public clients", async () => {
    const on = await (await app().app.handle(new Request("http://localhost/.well-known/oauth-authorization-server"))).json() as Record<string, unknown>;
    expect(on.client_id_metadata_document_supported).toBe(true);
    expect(on.token_endpoint_auth_methods_supported).toEqual(["client_secret_post", "none"]);
    const off = await (await app({ clientMetadataDocuments: false }).app.handle(new Request("http://localhost/oauth/meta"))).json() as Record<string, unknown>;
    expect(off.client_id_metadata_document_supported).toBeUndefined();
    expect(off.token_endpoint_auth_methods_supported).toEqual(["client_secret_post"]);
  });

  test("off (the default): a URL client_id is an unknown client, and nothing is fetched", async () => {
    const clientId = good("/off.json");
    const r = await refusal(app({ clientMetadataDocuments: false }), clientId);
    expect(r.status).toBe(401);
    expect(docs.hits("/off.json")).toBe(0);
  });

  test("a redirect_uri the document does not list is refused; loopback ones match any port", async () => {
    const t = app();
    const clientId = good("/redirects.json", { redirect_uris: [CALLBACK, "https://app.example/cb"] });
    const status = async (redirect: string) => (await authorize(t.app, asClient(clientId, { redirect_uri: redirect }), JSON_ACCEPT)).status;
    expect(await status("http://127.0.0.1:50000/callback")).toBe(200);
    expect(await status("https://app.example/cb")).toBe(200);
    expect(await status("http://localhost:50000/callback")).toBe(400);
    expect(await status("https://app.example/other")).toBe(400);
    expect(await status("https://evil.example/cb")).toBe(400);
  });

  test("the configured client's secret is not needed, and a code cannot cross to the configured client", async () => {
    const h = await getHarness();
    const t = app();
    const clientId = good("/cross.json");
    const verifier = newVerifier();
    const redirect = "http://127.0.0.1:49769/callback";
    const page = await authorize(t.app, authorizeQuery(verifier, { client_id: clientId, redirect_uri: redirect }));
    const res = await postForm(t.app, "/oauth/connect", aliceFields(h, formIds(await page.text())));
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    expect((await postForm(t.app, "/oauth/token", tokenFields(code, verifier, { redirect_uri: redirect }))).status).toBe(400);
    expect((await postForm(t.app, "/oauth/token", tokenFields(code, verifier, { client_id: clientId, client_secret: null, redirect_uri: redirect }))).status).toBe(200);
  });
});

describe("documents that are refused, each with a clear error (400 page, never a redirect)", () => {
  test("a document on a private address without MAILBOX_MCP_ALLOW_PRIVATE_HOSTS", async () => {
    const clientId = good("/private.json");
    const plain = await refusal(app({ allowPrivateHosts: false }), clientId);
    expect(plain.status).toBe(400);
    expect(plain.error_description).toContain("must be served over https");
    // An https URL whose name resolves to loopback: refused before any connection is made.
    const t = app({ allowPrivateHosts: false }, { resolve: async () => ["127.0.0.1"] });
    const r = await refusal(t, "https://docs.example/client.json");
    expect(r).toMatchObject({ status: 400, error: "invalid_client" });
    expect(r.error_description).toContain("docs.example is on a private network or reserved address");
    expect(docs.hits("/private.json")).toBe(0);
  });

  test.each([
    ["oversized (with a length)", () => docs.serve("/big.json", " ".repeat(6000)), "larger than 5120 bytes"],
    ["oversized (streamed, no length)", () => docs.stream("/stream.json", 8192), "larger than 5120 bytes"],
    ["malformed JSON", () => docs.serve("/bad.json", "{ not json"), "not valid JSON"],
    ["not an object", () => docs.serve("/array.json", "[]"), "not a JSON object"],
    ["a mismatched client_id", () => docs.serve("/mismatch.json", { client_id: "https://other.example/c.json", redirect_uris: [CALLBACK] }),
      "its client_id must be exactly the document's URL"],
    ["a redirect", () => docs.redirect("/moved.json", "/app.json"), "answered with a redirect, which is not followed"],
    ["not found", () => docs.url("/missing.json"), "answered HTTP 404"],
    ["a client_secret", () => good("/secret.json", { client_secret: "s" }), "must not carry a client_secret"],
    ["a secret-based auth method", () => good("/jwt.json", { token_endpoint_auth_method: "private_key_jwt" }), "accepts only public clients"],
    ["no usable redirect URI", () => good("/http.json", { redirect_uris: ["http://app.example/cb", "javascript:alert(1)"] }), "none of its redirect_uris"],
    ["no redirect URIs", () => good("/none.json", { redirect_uris: [] }), "redirect_uris must be an array"],
  ])("%s", async (_what, make, message) => {
    const r = await refusal(app(), make());
    expect(r).toMatchObject({ status: 400, error: "invalid_client" });
    expect(r.error_description).toContain(message);
  });

  test("slow: the fetch gives up at the time budget", async () => {
    const t = app({}, { timeoutMs: 300 });
    const r = await refusal(t, docs.hold("/slow.json"));
    expect(r.status).toBe(400);
    expect(r.error_description).toContain("could not be fetched within 0.3 seconds");
  });

  test("the HTML page names the reason too", async () => {
    const res = await authorize(app().app, asClient(docs.serve("/bad-html.json", "{")));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("not valid JSON");
  });

  test.each([
    ["a fragment", (u: string) => `${u}#x`, "must not contain a fragment"],
    ["no path", () => docs.origin + "/", "must have a path"],
    ["user info", (u: string) => u.replace("http://", "http://me@"), "user name or password"],
    ["dot segments", (u: string) => u.replace("/shape.json", "/x/../shape.json"), "canonically"],
  ])("a client_id URL with %s is refused without a fetch", async (_what, shape, message) => {
    const base = good("/shape.json");
    const r = await refusal(app(), shape(base));
    expect(r.status).toBe(400);
    expect(r.error_description).toContain(message);
    expect(docs.hits("/shape.json")).toBe(0);
  });
});

test("fetches per client address are limited (docs/oauth.md §5); cached documents do not count", async () => {
  const t = app();
  const cached = good("/limit-cached.json", {}, { "cache-control": "max-age=600" });
  for (let i = 0; i < 12; i++) expect((await authorize(t.app, asClient(cached), JSON_ACCEPT)).status).toBe(200);
  for (let i = 0; i < 9; i++) expect((await authorize(t.app, asClient(good(`/limit-${i}.json`)), JSON_ACCEPT)).status).toBe(200);
  const res = await authorize(t.app, asClient(good("/limit-over.json")), JSON_ACCEPT);
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(docs.hits("/limit-over.json")).toBe(0);
});

test("an address over its fetch limit does not pass its 429 to another address asking for the same document at once", async () => {
  const t = app({ trustProxy: true });
  const from = (ip: string) => ({ ...JSON_ACCEPT, "x-forwarded-for": ip });
  for (let i = 0; i < 10; i++) expect((await authorize(t.app, asClient(good(`/spent-${i}.json`)), from("198.51.100.7"))).status).toBe(200);
  const shared = good("/shared.json", {}, { "cache-control": "no-store" });
  const [spent, other] = await Promise.all([
    authorize(t.app, asClient(shared), from("198.51.100.7")),
    authorize(t.app, asClient(shared), from("203.0.113.9")),
  ]);
  expect(spent.status).toBe(429);
  expect(other.status).toBe(200);
  expect(docs.hits("/shared.json")).toBe(1);
});

describe("caching per Cache-Control, up to 24 hours", () => {
  const authorizeOk = async (t: ReturnType<typeof app>, clientId: string) =>
    expect((await authorize(t.app, asClient(clientId), JSON_ACCEPT)).status).toBe(200);

  test("max-age: reused while fresh, fetched again after", async () => {
    const t = app();
    const clientId = good("/cached.json", {}, { "cache-control": "public, max-age=60" });
    await authorizeOk(t, clientId);
    await authorizeOk(t, clientId);
    expect(docs.hits("/cached.json")).toBe(1);
    t.clock.advance(61_000);
    await authorizeOk(t, clientId);
    expect(docs.hits("/cached.json")).toBe(2);
  });

  test("a longer max-age is capped at 24 hours; no-store and no max-age are fetched every time", async () => {
    const t = app();
    const long = good("/long.json", {}, { "cache-control": "max-age=31536000" });
    await authorizeOk(t, long);
    t.clock.advance(24 * 3600_000 - 1000);
    await authorizeOk(t, long);
    expect(docs.hits("/long.json")).toBe(1);
    t.clock.advance(2000);
    await authorizeOk(t, long);
    expect(docs.hits("/long.json")).toBe(2);
    for (const [path, headers] of [["/nostore.json", { "cache-control": "no-store" }], ["/plain.json", {}]] as const) {
      const id = good(path, {}, headers);
      await authorizeOk(t, id);
      await authorizeOk(t, id);
      expect(docs.hits(path)).toBe(2);
    }
  });

  test("freshFor reads max-age, no-store and no-cache", () => {
    expect(freshFor("max-age=120")).toBe(120_000);
    expect(freshFor("Public, Max-Age=\"30\"")).toBe(30_000);
    expect(freshFor("max-age=120, no-cache")).toBe(0);
    expect(freshFor("no-store")).toBe(0);
    expect(freshFor(null)).toBe(0);
    expect(freshFor("max-age=999999999")).toBe(24 * 3600_000);
  });
});
