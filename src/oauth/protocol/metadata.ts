// Discovery documents: RFC 8414 server metadata with the contract's exact values (docs/contract.md §9), and RFC 9728
// protected resource metadata so MCP clients find the authorization server from a 401 (built by
// the SDK's buildOAuthProtectedResourceMetadata, v2, plus the fields docs/design.md §2 adds).
import { SCOPES } from "../../scopes.ts";
import { loadSdk } from "./sdk.ts";

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

/**
 * The protected resource document. Async: the SDK that builds it is loaded on the first request that
 * asks (src/http/routes/discovery.ts), not at start (docs/performance.md "Idle memory").
 */
export async function protectedResourceMetadata(baseUrl: string) {
  const { buildOAuthProtectedResourceMetadata } = await loadSdk();
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

/**
 * `{base_url}/.well-known/oauth-protected-resource/mcp` (RFC 9728 §3.1, path-aware): the well-known
 * path inserted ahead of the resource's path, as the SDK's getOAuthProtectedResourceMetadataUrl builds
 * it (test/oauth/without-sdk.test.ts compares the two); ours, because every 401 names it and the SDK
 * is not loaded at start.
 */
export function resourceMetadataUrl(baseUrl: string): string {
  const url = new URL(resourceUrl(baseUrl));
  const path = url.pathname.length > 1 && url.pathname.endsWith("/") ? url.pathname.slice(0, -1) : url.pathname;
  url.pathname = `/.well-known/oauth-protected-resource${path === "/" ? "" : path}`;
  url.hash = "";
  return url.href;
}

/** RFC 8707 `resource` values this server accepts: its MCP endpoint or its origin, trailing slash tolerated. */
export function isOwnResource(baseUrl: string, resource: string): boolean {
  const trimmed = resource.endsWith("/") ? resource.slice(0, -1) : resource;
  return trimmed === resourceUrl(baseUrl) || trimmed === baseUrl;
}
