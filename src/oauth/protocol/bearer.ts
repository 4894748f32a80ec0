// The Bearer guard for /mcp (RFC 6750 §3, RFC 9728 §5.1): who is calling, or why not. The SDK's
// Web-standard helpers (v2: verifyBearerToken, bearerAuthChallengeResponse) parse the header and
// build the challenges; our verifier is the store. Where they do not fit, ours stays:
// - no Authorization header at all: RFC 6750 §3.1 says such a challenge SHOULD NOT carry an error
//   code, and the SDK's always says error="invalid_token" (docs/design.md §2 wants it only when a token was sent);
// - the 403 for a missing scope keeps the JSON-RPC error body of every other /mcp refusal
//   (docs/decisions.md) and takes only its WWW-Authenticate header from the SDK.
// The SDK is loaded on the first /mcp request, not at start: an idle server holds none of it
// (docs/performance.md "Idle memory"); once loaded, a request does not wait for it again.
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { GrantStore, TokenRecord } from "../../store/grants.ts";
import { READ_WRITE_SCOPE, SCOPES } from "../../scopes.ts";
import { resourceMetadataUrl } from "./metadata.ts";
import { loadSdk } from "./sdk.ts";

export interface BearerAuth {
  /** The raw token: needed to unwrap the grant's credentials; never logged. */
  token: string;
  record: TokenRecord;
  scopes: string[];
}

export type BearerResult = { ok: true; auth: BearerAuth } | { ok: false; response: Response };

const INVALID = "The access token is invalid, expired or revoked";

/** The 401 for a request without any Authorization header: a challenge without an error code (RFC 6750 §3.1). */
function unauthenticated(baseUrl: string): Response {
  return new Response(JSON.stringify({ error: "unauthorized", error_description: "A Bearer access token is required" }), {
    status: 401,
    headers: {
      "content-type": "application/json",
      "www-authenticate": `Bearer resource_metadata="${resourceMetadataUrl(baseUrl)}", scope="${READ_WRITE_SCOPE}"`,
    },
  });
}

/** The 401 for a token that was sent but is unknown, expired, revoked or malformed (the SDK's answer). */
export async function invalidToken(baseUrl: string): Promise<Response> {
  const { bearerAuthChallengeResponse, OAuthError, OAuthErrorCode } = await loadSdk();
  return bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, INVALID), {
    requiredScopes: SCOPES, resourceMetadataUrl: resourceMetadataUrl(baseUrl),
  });
}

/** The WWW-Authenticate value of the 403 for a valid token that lacks a scope (RFC 6750 §3.1, MCP scope challenge). */
export async function insufficientScopeChallenge(baseUrl: string, needed: string): Promise<string> {
  const { bearerAuthChallengeResponse, OAuthError, OAuthErrorCode } = await loadSdk();
  const response = bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InsufficientScope, `This operation needs the ${needed} scope`), {
    requiredScopes: SCOPES, resourceMetadataUrl: resourceMetadataUrl(baseUrl),
  });
  return response.headers.get("www-authenticate")!;
}

// Our tokens are 64 lowercase hex characters; anything else is refused before the store is asked.
const TOKEN = /^[0-9a-f]{64}$/;

interface StoreAuthInfo extends AuthInfo {
  extra: { record: TokenRecord };
}

/** One indexed store lookup per request, no cache: a token revoked on any instance is refused at once everywhere. */
export async function checkBearer(grants: GrantStore, baseUrl: string, authorization: string | null): Promise<BearerResult> {
  if (!authorization) return { ok: false, response: unauthenticated(baseUrl) };
  const { OAuthError, OAuthErrorCode, verifyBearerToken } = await loadSdk();
  const verifier = {
    async verifyAccessToken(token: string): Promise<StoreAuthInfo> {
      const record = TOKEN.test(token) ? await grants.findToken(token) : null;
      if (!record) throw new OAuthError(OAuthErrorCode.InvalidToken, INVALID);
      return { token, clientId: "", scopes: record.scope.split(" "), expiresAt: Math.floor(record.expiresAt / 1000), extra: { record } };
    },
  };
  try {
    // The scheme is case-insensitive and may be followed by several spaces (RFC 7235 §2.1, RFC 6750
    // §2.1); the SDK splits on one space, so the header is normalised first. Expiry is the store's
    // (injectable clock); the SDK's own check against the real time can only refuse in addition.
    const header = authorization.trim().replace(/^(\S+) +/, "$1 ");
    const info = (await verifyBearerToken(header, { verifier })) as StoreAuthInfo;
    return { ok: true, auth: { token: info.token, record: info.extra.record, scopes: info.scopes } };
  } catch (err) {
    // One description for every refusal (malformed header, unknown, expired or revoked token).
    if (!(err instanceof OAuthError)) throw err;
    return { ok: false, response: await invalidToken(baseUrl) };
  }
}
