// Discovery documents: RFC 8414 server metadata with the spec's exact values, and RFC 9728
// protected resource metadata so MCP clients find the authorization server from a 401 (built by
// the SDK's buildOAuthProtectedResourceMetadata, v2, plus the fields DESIGN §2 adds).
import { buildOAuthProtectedResourceMetadata, getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/server";

export const SCOPE = "email:read email:write";
export const SCOPES = ["email:read", "email:write"];

export function serverMetadata(baseUrl: string) {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}/oauth/authorize`,
    token_endpoint: `${baseUrl}/oauth/token`,
    revocation_endpoint: `${baseUrl}/oauth/revoke`,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code"],
    code_challenge_methods_supported: ["S256"],
    // Exactly one method: clients fall back to client_secret_basic otherwise (DESIGN §2).
    token_endpoint_auth_methods_supported: ["client_secret_post"],
    scopes_supported: SCOPES,
  };
}

export function resourceUrl(baseUrl: string): string {
  return `${baseUrl}/mcp`;
}

export function protectedResourceMetadata(baseUrl: string) {
  const document = buildOAuthProtectedResourceMetadata({
    oauthMetadata: serverMetadata(baseUrl),
    resourceServerUrl: new URL(resourceUrl(baseUrl)),
    scopesSupported: SCOPES,
    resourceName: "mailbox-mcp",
    // The SDK refuses an http issuer other than localhost; {base_url} is the operator's to choose
    // (config.ts checks it is an origin), e.g. a homelab host on plain HTTP inside the LAN.
    dangerouslyAllowInsecureIssuerUrl: baseUrl.startsWith("http:"),
  });
  return { ...document, bearer_methods_supported: ["header"] };
}

/** `{base_url}/.well-known/oauth-protected-resource/mcp` (RFC 9728 §3.1, path-aware). */
export function resourceMetadataUrl(baseUrl: string): string {
  return getOAuthProtectedResourceMetadataUrl(new URL(resourceUrl(baseUrl)));
}

/** RFC 8707 `resource` values this server accepts: its MCP endpoint or its origin, trailing slash tolerated. */
export function isOwnResource(baseUrl: string, resource: string): boolean {
  const trimmed = resource.endsWith("/") ? resource.slice(0, -1) : resource;
  return trimmed === resourceUrl(baseUrl) || trimmed === baseUrl;
}
