// When an access token is renewed (docs/oauth-providers.md §3): once four fifths of its lifetime have
// passed. The margin grows with the lifetime, so a one-hour Microsoft token is renewed 12 minutes
// before it expires and a test token of 10 seconds 2 seconds before; calls in between use the token
// as it is and never wait on the provider.
import type { TokenRenewal } from "../../mail/account.ts";
import type { TokenSet } from "./token-client.ts";

/** Share of the lifetime after which the next call renews. */
export const RENEW_AFTER = 0.8;

/** The renewal a fresh token set starts; a provider that sent no new refresh token keeps the old one (RFC 6749 §6). */
export function renewalFor(tokens: TokenSet, obtainedAt: number, previousRefreshToken: string | null = null): TokenRenewal | null {
  const refreshToken = tokens.refreshToken ?? previousRefreshToken;
  if (!refreshToken) return null;
  const lifetime = tokens.expiresIn * 1000;
  return { refreshToken, expiresAt: obtainedAt + lifetime, renewAt: obtainedAt + Math.floor(lifetime * RENEW_AFTER) };
}

/**
 * After a renewal that failed for a reason that may pass (the provider unreachable): while the
 * token still works, try again after half the time it has left, at most a minute, rather than on
 * every call.
 */
export function retryLater(renewal: TokenRenewal, now: number): TokenRenewal {
  const wait = Math.min(60_000, Math.max(1000, Math.floor((renewal.expiresAt - now) / 2)));
  return { ...renewal, renewAt: Math.min(renewal.expiresAt, now + wait) };
}
