import { describe, expect, test } from "bun:test";
import { allowedRedirectUris, isAllowedRedirect, redirectHost, redirectOrigin, successRedirect } from "../../src/oauth/protocol/redirects.ts";
import { testConfig } from "../support/app.ts";

describe("redirect allowlist", () => {
  const allowed = allowedRedirectUris(testConfig({ clientHosts: ["a.example", "b.example"], extraRedirectUris: ["http://localhost:33418/callback"] }));

  test("the seed's four URIs, built from configuration, plus extras", () => {
    expect([...allowed]).toEqual([
      "https://a.example/api/mcp/auth_callback",
      "https://b.example/api/mcp/auth_callback",
      "http://localhost:6274/oauth/callback",
      "http://localhost:6274/oauth/callback/debug",
      "http://localhost:33418/callback",
    ]);
  });

  test.each([
    "https://a.example/api/mcp/auth_callback/",
    "http://a.example/api/mcp/auth_callback",
    "https://a.example:8443/api/mcp/auth_callback",
    "https://a.example/api/mcp/auth_callback?x=1",
    "https://A.EXAMPLE/api/mcp/auth_callback",
    "http://127.0.0.1:6274/oauth/callback",
    "http://localhost:6275/oauth/callback",
    "http://localhost:6274/oauth/callback/debug/",
    "https://evil.example/api/mcp/auth_callback",
  ])("exact match only: %s is refused", (uri) => {
    expect(isAllowedRedirect(allowed, uri)).toBe(false);
  });

  test("success redirect keeps the existing query and adds code, state and iss (RFC 9207)", () => {
    const url = new URL(successRedirect("https://a.example/cb?keep=1", "CODE", "s t&x=<y>", "https://mail.example"));
    expect(url.searchParams.get("keep")).toBe("1");
    expect(url.searchParams.get("code")).toBe("CODE");
    expect(url.searchParams.get("state")).toBe("s t&x=<y>");
    expect(url.searchParams.get("iss")).toBe("https://mail.example");
  });

  test("origin and host of a redirect", () => {
    expect(redirectOrigin("http://localhost:6274/oauth/callback")).toBe("http://localhost:6274");
    expect(redirectOrigin("cursor://anysphere.cursor-mcp/oauth/callback")).toBeNull();
    expect(redirectHost("https://claude.ai/api/mcp/auth_callback")).toBe("claude.ai");
  });
});
