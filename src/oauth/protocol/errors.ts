// OAuth errors in the RFC 6749 §5.2 format. Statuses where the spec is silent: docs/design.md §3.
// Ours is OAuthProblem: the MCP SDK has an OAuthError class of its own (thrown by its auth helpers),
// which fromSdkError turns into one of ours so it gets the same answer.
import type { OAuthError as SdkOAuthError } from "@modelcontextprotocol/server";
import { SCOPES } from "../../scopes.ts";

export class OAuthProblem extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthProblem";
  }

  toJSON() {
    return { error: this.error, error_description: this.description };
  }
}

export class InvalidRequestError extends OAuthProblem {
  constructor(description: string) { super("invalid_request", description); }
}
export class InvalidClientError extends OAuthProblem {
  constructor(description = "client authentication failed", headers: Record<string, string> = {}) {
    super("invalid_client", description, 401, headers);
  }
}
export class InvalidGrantError extends OAuthProblem {
  constructor(description = "The authorization code is invalid, expired, or failed PKCE verification") {
    super("invalid_grant", description);
  }
}
export class UnsupportedGrantTypeError extends OAuthProblem {
  constructor() { super("unsupported_grant_type", "grant_type must be authorization_code"); }
}
export class InvalidTargetError extends OAuthProblem {
  constructor(description = "resource does not match this server's MCP endpoint") { super("invalid_target", description); }
}
export class InvalidScopeError extends OAuthProblem {
  constructor(description = `scope may contain only ${SCOPES.join(" and ")}`) { super("invalid_scope", description); }
}
export class UnauthorizedClientError extends OAuthProblem {
  constructor(description = "unknown client_id") { super("unauthorized_client", description, 401); }
}

/**
 * Statuses of the SDK's error codes that are not 400 (RFC 6749 §5.2): invalid_client and our
 * unauthorized_client are 401 (docs/design.md §3); invalid_token 401 and insufficient_scope 403
 * (RFC 6750 §3.1); the rest are what their names say (RFC 9110 §15.5.6, RFC 6585 §4, RFC 9110 §15.6.4).
 */
const SDK_STATUS: Record<string, number> = {
  invalid_client: 401, unauthorized_client: 401, invalid_token: 401, insufficient_scope: 403, access_denied: 403,
  method_not_allowed: 405, too_many_requests: 429, temporarily_unavailable: 503,
};

/** RFC 6750 §3: a 401 or 403 of a protected resource says how to authenticate. */
const BEARER_CHALLENGE = new Set(["invalid_token", "insufficient_scope"]);

/**
 * The SDK's OAuthError as one of ours, or null for its server_error, which is an internal failure
 * (logged, answered with the generic 500: its message is not for the client).
 */
export function fromSdkError(err: unknown): OAuthProblem | null {
  if (!isSdkOAuthError(err) || err.code === "server_error") return null;
  const headers: Record<string, string> = BEARER_CHALLENGE.has(err.code) ? { "www-authenticate": `Bearer error="${err.code}"` } : {};
  return new OAuthProblem(err.code, err.message, SDK_STATUS[err.code] ?? 400, headers);
}

/**
 * The SDK's OAuthError (or a subclass), told by the brand its constructor stamps on every instance:
 * the SDK's own `instanceof` looks for that brand first, under a registered symbol shared by every copy
 * of the SDK. Asked this way, the error mapping, which every route uses, does not load the SDK at start
 * (docs/performance.md "Idle memory"); no SDK error exists before the SDK is loaded anyway.
 */
const ERROR_BRANDS = Symbol.for("mcp.sdk.errorBrands");

export function isSdkOAuthError(err: unknown): err is SdkOAuthError {
  if (!(err instanceof Error) || !Object.hasOwn(err, ERROR_BRANDS)) return false;
  const brands = (err as unknown as Record<symbol, unknown>)[ERROR_BRANDS];
  return brands instanceof Set && brands.has("mcp.OAuthError");
}
