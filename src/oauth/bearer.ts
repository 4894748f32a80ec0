// The Bearer guard for /mcp (RFC 6750 §3, RFC 9728 §5.1): who is calling, or why not.
import type { GrantStore, TokenRecord } from "../store/grants.ts";
import { resourceMetadataUrl, SCOPE } from "./metadata.ts";

export interface BearerAuth {
  /** The raw token: needed to unwrap the grant's credentials; never logged. */
  token: string;
  record: TokenRecord;
  scopes: string[];
}

export type BearerResult = { ok: true; auth: BearerAuth } | { ok: false; response: Response };

/** The 401 every /mcp failure returns; `invalid_token` only when a token was sent (RFC 6750 §3.1). */
export function unauthorized(baseUrl: string, tokenSent: boolean): Response {
  let challenge = `Bearer resource_metadata="${resourceMetadataUrl(baseUrl)}", scope="${SCOPE}"`;
  if (tokenSent) challenge += `, error="invalid_token", error_description="The access token is invalid, expired or revoked"`;
  const body = tokenSent
    ? { error: "invalid_token", error_description: "The access token is invalid, expired or revoked" }
    : { error: "unauthorized", error_description: "A Bearer access token is required" };
  return new Response(JSON.stringify(body), {
    status: 401,
    headers: { "content-type": "application/json", "www-authenticate": challenge },
  });
}

/** The 403 challenge for a valid token that lacks a scope (RFC 6750 §3.1, MCP scope challenge). */
export function insufficientScopeChallenge(baseUrl: string, needed: string): string {
  return `Bearer error="insufficient_scope", scope="${SCOPE}", resource_metadata="${resourceMetadataUrl(baseUrl)}", ` +
    `error_description="This operation needs the ${needed} scope"`;
}

// The scheme is case-insensitive (RFC 7235 §2.1); our tokens are lowercase hex.
const BEARER = /^[Bb][Ee][Aa][Rr][Ee][Rr] +([0-9a-f]{64})$/;

/** One indexed store lookup per request, no cache: a token revoked on any instance is refused at once everywhere. */
export async function checkBearer(grants: GrantStore, baseUrl: string, authorization: string | null): Promise<BearerResult> {
  if (!authorization) return { ok: false, response: unauthorized(baseUrl, false) };
  const match = BEARER.exec(authorization.trim());
  const record = match ? await grants.findToken(match[1]!) : null;
  if (!match || !record) return { ok: false, response: unauthorized(baseUrl, true) };
  return { ok: true, auth: { token: match[1]!, record, scopes: record.scope.split(" ") } };
}
