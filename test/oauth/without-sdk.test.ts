// Two things our own code now does where it asked the SDK, so that an idle server need not load the SDK
// (docs/performance.md "Idle memory"): the protected resource metadata URL every 401 names, and telling
// the SDK's OAuthError apart (src/oauth/protocol/errors.ts). Each must answer exactly as the SDK does.
import { expect, test } from "bun:test";
import { getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/server";
import { resourceMetadataUrl, resourceUrl } from "../../src/oauth/protocol/metadata.ts";

test("resourceMetadataUrl reads as the SDK's getOAuthProtectedResourceMetadataUrl", () => {
  for (const base of ["http://localhost:8080", "https://mail.example.com", "https://mail.example.com:8443", "http://192.168.1.5", "http://[::1]:3000", "https://xn--mll-hoa.example"]) {
    expect(resourceMetadataUrl(base)).toBe(getOAuthProtectedResourceMetadataUrl(new URL(resourceUrl(base))));
  }
  expect(resourceMetadataUrl("https://mail.example.com")).toBe("https://mail.example.com/.well-known/oauth-protected-resource/mcp");
});

test("an SDK OAuthError is told by its brand, as the SDK's own instanceof tells it", async () => {
  const { OAuthError, OAuthErrorCode, InsufficientScopeError } = await import("@modelcontextprotocol/server") as Record<string, any>;
  const { isSdkOAuthError, OAuthProblem } = await import("../../src/oauth/protocol/errors.ts");
  const cases: unknown[] = [new OAuthError(OAuthErrorCode.InvalidToken, "x"), new Error("x"), new OAuthProblem("invalid_request", "x"), null, "OAuthError", { name: "OAuthError" }];
  if (typeof InsufficientScopeError === "function") cases.push(new InsufficientScopeError("x"));
  for (const err of cases) expect(isSdkOAuthError(err)).toBe(err instanceof OAuthError);
  expect(isSdkOAuthError(cases[0])).toBe(true);
});
