// POST /oauth/token, authorization_code grant (RFC 6749 §4.1.3–§4.1.4, RFC 7636 §4.5–§4.6, RFC 8707 §2.2).
// Checks run in the order of docs/contract.md §7; each failure is an OAuthProblem in the RFC 6749 §5.2 format.
import type { Config } from "../../config.ts";
import { randomHex, safeEqual } from "../../store/crypto.ts";
import type { ClientRegistry, OAuthClient } from "./clients.ts";
import { BASIC_CHALLENGE, clientCredentials } from "./client-credentials.ts";
import type { CodeRecord, GrantStore } from "../../store/grants.ts";
import type { Clock } from "../../clock.ts";
import {
  InvalidClientError, InvalidGrantError, InvalidRequestError, InvalidTargetError, OAuthProblem, UnsupportedGrantTypeError,
} from "./errors.ts";
import { resourceUrl } from "./metadata.ts";
import { isValidVerifier, verifierMatches } from "./pkce.ts";
import type { Limiters } from "../rate-limits/rate-limit.ts";
import type { TokenEvents } from "../lifecycle/token-events.ts";

export const TOKEN_TTL_SECONDS = 2_592_000; // docs/contract.md §2.3: 30 days

export interface TokenFields {
  grant_type?: string;
  code?: string;
  client_id?: string;
  client_secret?: string;
  code_verifier?: string;
  redirect_uri?: string;
  resource?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

export interface ExchangeDeps {
  config: Pick<Config, "baseUrl" | "clientId">;
  grants: GrantStore;
  clients: ClientRegistry;
  clock: Clock;
  events: TokenEvents;
}

/**
 * RFC 6749 §2.3.1, client_secret_post or client_secret_basic (client-credentials.ts). For the configured
 * client both values are compared in constant time, and both comparisons always run, so timing does not
 * reveal which one was wrong; a missing secret is invalid_client too. Registered public clients send no
 * secret (clients.ts).
 */
async function authenticateClient(f: TokenFields, authorization: string | null, clients: ClientRegistry): Promise<OAuthClient> {
  const given = clientCredentials(f, authorization);
  const client = await clients.authenticate(given.clientId, given.secret);
  if (!client) throw new InvalidClientError("client authentication failed", given.basic ? BASIC_CHALLENGE : {});
  return client;
}

const trimSlash = (s: string) => (s.endsWith("/") ? s.slice(0, -1) : s);

/** RFC 8707 §2.2: the resource, when sent, must be the one bound at authorize (or our MCP endpoint). */
function checkResource(requested: string | undefined, record: CodeRecord, baseUrl: string): void {
  if (requested === undefined) return;
  const expected = record.resource ?? resourceUrl(baseUrl);
  if (trimSlash(requested) !== trimSlash(expected)) throw new InvalidTargetError();
}

/**
 * RFC 6749 §10.5: a code used twice is refused and the token issued from it is revoked — when the
 * replay proves it comes from whoever holds the client's proof: a confidential client's secret (it
 * authenticated), or the PKCE verifier (only the client that started the flow has it). A public
 * client has no secret, so without that condition anyone who saw a used code (a proxy log, browser
 * history, a screenshot of the callback URL) could revoke the person's token with any verifier.
 * Such a replay is refused like any bad code, and changes nothing (docs/oauth.md §1).
 */
function replayRevokes(client: OAuthClient, verifier: string, record: CodeRecord): boolean {
  return client.authMethod !== "none" || verifierMatches(verifier, record.codeChallenge);
}

async function refuseReplay(deps: ExchangeDeps, record: CodeRecord): Promise<never> {
  const tokenId = await deps.grants.revokeFromReplayedCode(record);
  if (tokenId) await deps.events.emitRevoked(tokenId);
  throw new InvalidGrantError();
}

/** The code's record once it is known, unexpired, PKCE-verified and bound to this redirect_uri. */
async function checkCode(deps: ExchangeDeps, client: OAuthClient, f: Required<Pick<TokenFields, "code" | "code_verifier" | "redirect_uri">>) {
  const record = await deps.grants.findCode(f.code);
  if (!record) throw new InvalidGrantError();
  // RFC 6749 §4.1.3: the code must have been issued to this client (null: a code from before registration).
  if (!safeEqual(record.clientId ?? deps.config.clientId, client.id)) throw new InvalidGrantError();
  if (record.usedAt !== null) {
    if (replayRevokes(client, f.code_verifier, record)) return refuseReplay(deps, record);
    throw new InvalidGrantError();
  }
  if (record.expiresAt <= deps.clock()) throw new InvalidGrantError();
  if (!verifierMatches(f.code_verifier, record.codeChallenge)) throw new InvalidGrantError();
  if (!safeEqual(f.redirect_uri, record.redirectUri)) throw new InvalidGrantError();
  return record;
}

/** `authorization`: the request's Authorization header, where a client_secret_basic client puts its credentials. */
export async function exchangeCode(deps: ExchangeDeps, f: TokenFields, authorization: string | null = null): Promise<TokenResponse> {
  // A missing grant_type is "not authorization_code" (docs/contract.md §16): unsupported_grant_type.
  if (f.grant_type !== "authorization_code") throw new UnsupportedGrantTypeError();
  const client = await authenticateClient(f, authorization, deps.clients);
  if (!f.code_verifier || !isValidVerifier(f.code_verifier)) {
    throw new InvalidRequestError("code_verifier is required: 43 to 128 unreserved characters (RFC 7636 §4.1)");
  }
  if (!f.code) throw new InvalidRequestError("code is required");
  if (!f.redirect_uri) throw new InvalidRequestError("redirect_uri is required");
  const record = await checkCode(deps, client, { code: f.code, code_verifier: f.code_verifier, redirect_uri: f.redirect_uri });
  checkResource(f.resource, record, deps.config.baseUrl);
  const token = randomHex(32);
  // The grant's scope: the contract's "email:read email:write", or "email:read" when the person chose
  // read-only on the setup form (docs/owner.md §3; RFC 6749 §5.1 says the narrower scope here).
  const issued = await deps.grants.redeemCode(f.code, record, token, record.scope, TOKEN_TTL_SECONDS * 1000);
  if (!issued) return refuseReplay(deps, record); // lost a race with another exchange of the same code
  return { access_token: token, token_type: "Bearer", expires_in: TOKEN_TTL_SECONDS, scope: record.scope };
}

/**
 * exchangeCode behind the "token-client-auth" limit (limits.ts) for `clientKey`: the slot is reserved first (so concurrent
 * guesses cannot race past the limit) and kept only when client authentication failed.
 */
export async function exchangeCodeLimited(
  deps: ExchangeDeps & { limits: Pick<Limiters, "token-client-auth"> }, f: TokenFields, clientKey: string,
  authorization: string | null = null,
): Promise<TokenResponse> {
  const slot = await deps.limits["token-client-auth"].reserve([clientKey]);
  if ("retryAfter" in slot) {
    throw new OAuthProblem("temporarily_unavailable",
      `Too many failed client authentications from this address. Wait ${slot.retryAfter} seconds, then try again.`, 429,
      { "retry-after": String(slot.retryAfter) });
  }
  let issued: TokenResponse;
  try {
    issued = await exchangeCode(deps, f, authorization);
  } catch (err) {
    if (!(err instanceof InvalidClientError)) await slot.release();
    throw err;
  }
  await slot.release();
  return issued;
}
