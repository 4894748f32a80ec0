// Discovery documents: RFC 8414 server metadata with the contract's exact values (docs/contract.md §9), and RFC 9728
// protected resource metadata so MCP clients find the authorization server from a 401 (built by
// the SDK's buildOAuthProtectedResourceMetadata, v2, plus the fields docs/design.md §2 adds).
import { buildOAuthProtectedResourceMetadata, getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/server";
import { SCOPES } from "../../scopes.ts";

/** What the metadata advertises beyond the contract's document (docs/design.md §2). */
export interface MetadataOptions {
  openRegistration?: boolean;
  clientMetadataDocuments?: boolean;
}

/**
 * RFC 8414 metadata. With neither switch: the contract's document exactly. Open registration adds the
 * registration endpoint (RFC 7591 §3); client metadata documents add client_id_metadata_document_supported;
 * either adds "none" for their public clients, after client_secret_post.
 */
export function serverMetadata(baseUrl: string, { openRegistration = false, clientMetadataDocuments = false }: MetadataOptions = {}) {
  const publicClients = openRegistration || clientMetadataDocuments;
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}/oauth/authorize`,
    token_endpoint: `${baseUrl}/oauth/token`,
    revocation_endpoint: `${baseUrl}/oauth/revoke`,
    ...(openRegistration ? { registration_endpoint: `${baseUrl}/oauth/register` } : {}),
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code"],
    code_challenge_methods_supported: ["S256"],
    // Never client_secret_basic: clients fall back to it when the list is missing (docs/design.md §2).
    token_endpoint_auth_methods_supported: publicClients ? ["client_secret_post", "none"] : ["client_secret_post"],
    scopes_supported: SCOPES,
    // RFC 9207 §3: every authorization response carries `iss` (redirects.ts).
    authorization_response_iss_parameter_supported: true,
    ...(clientMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
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
