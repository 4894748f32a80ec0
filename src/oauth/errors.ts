// OAuth errors in the RFC 6749 §5.2 format. Statuses where the spec is silent: docs/design.md §3.
import { SCOPES } from "../scopes.ts";

export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthError";
  }

  toJSON() {
    return { error: this.error, error_description: this.description };
  }
}

export class InvalidRequestError extends OAuthError {
  constructor(description: string) { super("invalid_request", description); }
}
export class InvalidClientError extends OAuthError {
  constructor(description = "client authentication failed") { super("invalid_client", description, 401); }
}
export class InvalidGrantError extends OAuthError {
  constructor(description = "The authorization code is invalid, expired, or failed PKCE verification") {
    super("invalid_grant", description);
  }
}
export class UnsupportedGrantTypeError extends OAuthError {
  constructor() { super("unsupported_grant_type", "grant_type must be authorization_code"); }
}
export class InvalidTargetError extends OAuthError {
  constructor(description = "resource does not match this server's MCP endpoint") { super("invalid_target", description); }
}
export class InvalidScopeError extends OAuthError {
  constructor(description = `scope may contain only ${SCOPES.join(" and ")}`) { super("invalid_scope", description); }
}
export class UnauthorizedClientError extends OAuthError {
  constructor(description = "unknown client_id") { super("unauthorized_client", description, 401); }
}
