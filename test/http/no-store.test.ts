// Which answers may be cached: none on the OAuth paths (RFC 6749 §5.1 for token responses and their
// errors; the setup pages too, docs/oauth.md §7), whatever answers them (the route, a schema or
// parse error, a 404 for another method); the discovery documents, /health and /mcp's refusals
// carry no caching header. One place per route declares it (src/http/responses.ts); this pins the
// outcome on every path.
import { describe, expect, test } from "bun:test";
import { testDeps } from "../support/app.ts";
import { authorize, authorizeQuery, formIds, newVerifier, postForm, tokenFields, type Handler } from "../oauth/flow.ts";
import { LOOPBACK, register } from "../oauth/register-flow.ts";

const req = (path: string, init: RequestInit = {}) => new Request(`http://localhost${path}`, init);
const post = (path: string, type: string, body: string) => req(path, { method: "POST", headers: { "content-type": type }, body });

function expectNoStore(res: Response, label: string) {
  expect([label, res.headers.get("cache-control"), res.headers.get("pragma")]).toEqual([label, "no-store", "no-cache"]);
}

/** An app whose mailbox login always succeeds (no mail server needed), so every step can be reached. */
function app(openRegistration = false): Handler {
  return testDeps({ openRegistration }, { verifyLogin: async () => {} }).app;
}

/** authorize → form → connect: the answers on the way and a code. */
async function flow(a: Handler) {
  const verifier = newVerifier();
  const page = await authorize(a, authorizeQuery(verifier));
  const ids = formIds(await page.clone().text());
  const connected = await postForm(a, "/oauth/connect", { ...ids, provider: "gmail", email: "a@gmail.com", password: "p" });
  const code = new URL(connected.headers.get("location")!).searchParams.get("code")!;
  return { page, ids, connected, code, verifier };
}

describe("no-store on every answer of the OAuth paths", () => {
  test("/oauth/authorize: the form, HEAD, errors (HTML and JSON), another method's 404", async () => {
    const a = app();
    const { page } = await flow(a);
    expectNoStore(page, "form");
    expectNoStore(await a.handle(req(`/oauth/authorize?${authorizeQuery(newVerifier())}`, { method: "HEAD" })), "HEAD");
    expectNoStore(await authorize(a, authorizeQuery(newVerifier(), { client_id: "other" })), "error page");
    expectNoStore(await authorize(a, authorizeQuery(newVerifier(), { state: null }), { accept: "application/json" }), "JSON error");
    expectNoStore(await a.handle(req("/oauth/authorize", { method: "POST" })), "POST 404");
  });

  test("/oauth/connect: the 303, the form again, error pages, body errors, another method's 404", async () => {
    const a = app();
    const { connected, ids } = await flow(a);
    expect(connected.status).toBe(303);
    expectNoStore(connected, "303");
    expectNoStore(await postForm(a, "/oauth/connect", { ...ids, provider: "nope" }), "expired (used) request");
    const again = await flow(a);
    expectNoStore(await postForm(a, "/oauth/connect", { ...again.ids, csrf_token: "forged" }), "forged");
    expectNoStore(await postForm(a, "/oauth/connect", { ...again.ids, provider: "nope" }), "form again");
    expectNoStore(await a.handle(post("/oauth/connect", "application/x-www-form-urlencoded", "email=a&email=b")), "schema error");
    expectNoStore(await a.handle(post("/oauth/connect", "application/json", "{")), "parse error");
    expectNoStore(await a.handle(post("/oauth/connect", "application/x-www-form-urlencoded", `a=${"x".repeat(70_000)}`)), "413");
    expectNoStore(await a.handle(req("/oauth/connect")), "GET 404");
  });

  test("/oauth/token: the token, every error, schema errors, another method's 404", async () => {
    const a = app();
    const { code, verifier } = await flow(a);
    expectNoStore(await postForm(a, "/oauth/token", tokenFields(code, verifier, { client_secret: "wrong-wrong-wrong" })), "invalid_client");
    const ok = await postForm(a, "/oauth/token", tokenFields(code, verifier));
    expect(ok.status).toBe(200);
    expectNoStore(ok, "token");
    expectNoStore(await postForm(a, "/oauth/token", tokenFields(code, verifier)), "invalid_grant");
    expectNoStore(await a.handle(post("/oauth/token", "application/json", "{}")), "wrong media type");
    expectNoStore(await a.handle(post("/oauth/token", "application/x-www-form-urlencoded", "code=a&code=b")), "schema error");
    expectNoStore(await a.handle(req("/oauth/token")), "GET 404");
  });

  test("/oauth/revoke: the answer, a refused media type, a parse error", async () => {
    const a = app();
    expectNoStore(await a.handle(post("/oauth/revoke", "application/json", '{"token":"x"}')), "revoked");
    expectNoStore(await a.handle(post("/oauth/revoke", "text/plain", "x")), "wrong media type");
    expectNoStore(await a.handle(post("/oauth/revoke", "application/json", "{")), "parse error");
  });

  test("/oauth/register (open registration): the registration and its refusals", async () => {
    const a = app(true);
    const created = await register(a, { redirect_uris: [LOOPBACK] });
    expect(created.status).toBe(201);
    expectNoStore(created, "201");
    const refused = await register(a, { redirect_uris: ["https://evil.example/cb"] });
    expect(refused.status).toBe(400);
    expectNoStore(refused, "invalid_redirect_uri");
    expectNoStore(await register(a, `[${"1,".repeat(40_000)}1]`), "413");
  });
});

describe("no caching header elsewhere", () => {
  test("discovery, /health, an unknown path, /mcp's refusal, a CORS preflight on an OAuth path", async () => {
    const a = app();
    const preflight = req("/oauth/token", { method: "OPTIONS", headers: { origin: "https://claude.ai", "access-control-request-method": "POST" } });
    const requests = ["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource", "/oauth/meta", "/health",
      "/oauth/nope", "/mcp"].map((path) => req(path)).concat(preflight);
    const seen = await Promise.all(requests.map(async (r) => {
      const res = await a.handle(r);
      return [r.method, new URL(r.url).pathname, res.headers.get("cache-control"), res.headers.get("pragma")];
    }));
    expect(seen).toEqual(requests.map((r) => [r.method, new URL(r.url).pathname, null, null]));
  });

  test("GET / is never cached, as HTML or JSON", async () => {
    const a = app();
    expectNoStore(await a.handle(req("/")), "HTML");
    expectNoStore(await a.handle(req("/", { headers: { accept: "application/json" } })), "JSON");
  });
});
