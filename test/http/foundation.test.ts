import { describe, expect, test } from "bun:test";
import { OAuthError as SdkOAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import { createApp } from "../../src/http/app.ts";
import { SECURITY_HEADERS } from "../../src/http/plugins/security.ts";
import { testApp, testDeps } from "../support/app.ts";

const { app } = testApp();
const get = (path: string, init: RequestInit = {}) => app.handle(new Request(`http://localhost${path}`, init));

function expectSecurityHeaders(res: Response) {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(k)).toBe(v);
  expect(res.headers.get("x-powered-by")).toBeNull();
}

describe("health", () => {
  test("GET /health is the health document", async () => {
    const res = await get("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", service: "mailbox-mcp", transport: "streamable-http", version: "0.0.0-test" });
    expectSecurityHeaders(res);
  });
  test("HEAD /health is 200 with no body", async () => {
    const res = await get("/health", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    expectSecurityHeaders(res);
  });
});

describe("discovery", () => {
  const meta = {
    issuer: "http://localhost",
    authorization_endpoint: "http://localhost/oauth/authorize",
    token_endpoint: "http://localhost/oauth/token",
    revocation_endpoint: "http://localhost/oauth/revoke",
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["client_secret_post"],
  };
  for (const path of ["/oauth/meta", "/.well-known/oauth-authorization-server"]) {
    test(`${path} carries the seed's exact values`, async () => {
      const body = (await (await get(path)).json()) as Record<string, unknown>;
      expect(body).toMatchObject(meta);
      expect(body.scopes_supported).toEqual(["email:read", "email:write"]);
      expect(body.authorization_response_iss_parameter_supported).toBe(true); // RFC 9207 §3
    });
  }
  for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
    test(`${path} is RFC 9728 metadata for /mcp`, async () => {
      expect(await (await get(path)).json()).toMatchObject({
        resource: "http://localhost/mcp",
        authorization_servers: ["http://localhost"],
        scopes_supported: ["email:read", "email:write"],
        bearer_methods_supported: ["header"],
      });
    });
  }
});

describe("security headers and CORS", () => {
  test("a 404 carries the security headers and a JSON error", async () => {
    const res = await get("/no/such/path");
    expect(res.status).toBe(404);
    expectSecurityHeaders(res);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  for (const origin of ["https://claude.ai", "https://claude.com", "http://localhost", "https://site.example"]) {
    test(`preflight from allowed origin ${origin}`, async () => {
      const res = await get("/mcp", {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(origin);
      expect(res.headers.get("access-control-expose-headers")).toContain("Mcp-Session-Id");
      expect(res.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expectSecurityHeaders(res);
    });
  }

  for (const origin of ["https://evil.example", "http://claude.ai", "null", "https://claude.ai.evil.example"]) {
    test(`no CORS grant for ${origin}`, async () => {
      const res = await get("/health", { headers: { origin } });
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      const pre = await get("/health", { method: "OPTIONS", headers: { origin, "access-control-request-method": "GET" } });
      expect(pre.headers.get("access-control-allow-origin")).toBeNull();
      expectSecurityHeaders(pre);
    });
  }

  test("extra origins from configuration are allowed", async () => {
    const { app: a } = testApp({ extraOrigins: ["http://localhost:6274"] });
    const res = await a.handle(new Request("http://localhost/health", { headers: { origin: "http://localhost:6274" } }));
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
  });
});

describe("errors", () => {
  test("an unknown error is a logged generic 500 with the security headers, never its message", async () => {
    const deps = testDeps();
    const app2 = createApp(deps).get("/boom", () => {
      throw new Error("secret internal detail");
    });
    const res = await app2.handle(new Request("http://localhost/boom"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("secret internal detail");
    expect(JSON.parse(text)).toEqual({ error: "server_error", error_description: "internal error" });
    expectSecurityHeaders(res);
    expect(deps.log.lines.join("\n")).toContain("secret internal detail");
  });

  test("the MCP SDK's OAuthError is an RFC 6749 error answer, not a 500; its server_error stays a generic 500", async () => {
    const deps = testDeps();
    const thrown = (code: string, message: string) => () => { throw new SdkOAuthError(code, message); };
    const app2 = createApp(deps)
      .get("/grant", thrown(OAuthErrorCode.InvalidGrant, "the code is gone"))
      .get("/client", thrown(OAuthErrorCode.InvalidClient, "who are you"))
      .get("/token", thrown(OAuthErrorCode.InvalidToken, "expired"))
      .get("/server", thrown(OAuthErrorCode.ServerError, "db password wrong"));
    const get = (path: string) => app2.handle(new Request(`http://localhost${path}`));

    const grant = await get("/grant");
    expect(grant.status).toBe(400);
    expect(await grant.json()).toEqual({ error: "invalid_grant", error_description: "the code is gone" });
    expect([grant.headers.get("cache-control"), grant.headers.get("pragma")]).toEqual(["no-store", "no-cache"]);
    expectSecurityHeaders(grant);
    expect((await get("/client")).status).toBe(401);
    const token = await get("/token");
    expect(token.status).toBe(401);
    expect(token.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');

    const server = await get("/server");
    expect(server.status).toBe(500);
    expect(await server.json()).toEqual({ error: "server_error", error_description: "internal error" });
    expect(deps.log.lines.join("\n")).toContain("db password wrong");
  });
});
