// The two calls this server makes to a provider's token endpoint (RFC 6749 §4.1.3 code exchange with
// PKCE, RFC 7636 §4.5; §6 refresh), with our own `fetch`: a form POST and a JSON answer need no OAuth
// library. Client authentication is client_secret_post (RFC 6749 §2.3.1), which Microsoft, Google and
// the usual self-hosted servers accept; a public client sends only its id.
import type { OAuthProvider } from "./provider.ts";
import { UpstreamError, upstreamError } from "./errors.ts";
import { cappedJson, MAX_PROVIDER_ANSWER } from "./capped-body.ts";

export interface TokenSet {
  accessToken: string;
  /** Absent when the provider keeps the old one (Google) or gave none. */
  refreshToken: string | null;
  /** Seconds; RFC 6749 §5.1 makes it optional, one hour is then assumed. */
  expiresIn: number;
  idToken: string | null;
}

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** A provider that does not answer within this long is "unavailable" (the setup form's 15 s budget, docs/oauth.md §1). */
export const TOKEN_TIMEOUT_MS = 15_000;
const DEFAULT_EXPIRES_IN = 3600;

function tokenSet(name: string, body: Record<string, unknown>): TokenSet {
  const { access_token, refresh_token, expires_in, id_token, token_type } = body;
  if (typeof access_token !== "string" || !access_token || (token_type !== undefined && String(token_type).toLowerCase() !== "bearer")) {
    throw new UpstreamError("unavailable", `${name} answered the sign-in without a usable access token. Try again; if it persists, whoever runs this server should check the provider's settings.`);
  }
  const seconds = Number(expires_in);
  return {
    accessToken: access_token,
    refreshToken: typeof refresh_token === "string" && refresh_token ? refresh_token : null,
    expiresIn: Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_EXPIRES_IN,
    idToken: typeof id_token === "string" ? id_token : null,
  };
}

async function post(p: OAuthProvider, params: Record<string, string>, atRefresh: boolean, fetcher: Fetch): Promise<TokenSet> {
  const form = new URLSearchParams({ ...params, client_id: p.clientId });
  if (p.clientSecret) form.set("client_secret", p.clientSecret);
  let res: Response;
  try {
    res = await fetcher(p.tokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form,
      redirect: "error",
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
  } catch {
    throw new UpstreamError("unavailable", `${p.name} could not be reached to complete the sign-in. Try again in a few minutes.`);
  }
  const read = await cappedJson(res).catch(() => null);
  if (read === "too_large") {
    throw new UpstreamError("unavailable", `${p.name} answered the sign-in with more than ${MAX_PROVIDER_ANSWER / 1024} KiB, which no token answer needs; nothing of it was used. Try again; if it persists, whoever runs this server should check the provider's token endpoint.`);
  }
  const body = read ?? {};
  if (res.ok) return tokenSet(p.name, body);
  if (typeof body.error === "string") {
    throw upstreamError(p.name, body.error, typeof body.error_description === "string" ? body.error_description : null, atRefresh);
  }
  throw new UpstreamError("unavailable", `${p.name} answered the sign-in with HTTP ${res.status}. Try again in a few minutes.`);
}

/** The authorization code for tokens (RFC 6749 §4.1.3), proven by the PKCE verifier. */
export function exchangeCode(p: OAuthProvider, code: string, codeVerifier: string, redirectUri: string, fetcher: Fetch = fetch): Promise<TokenSet> {
  return post(p, { grant_type: "authorization_code", code, code_verifier: codeVerifier, redirect_uri: redirectUri }, false, fetcher);
}

/**
 * A new access token (RFC 6749 §6). The scope is asked again, mail scopes first: Microsoft issues a
 * refreshed token for the first resource the scope names.
 */
export function refreshTokens(p: OAuthProvider, refreshToken: string, fetcher: Fetch = fetch): Promise<TokenSet> {
  return post(p, { grant_type: "refresh_token", refresh_token: refreshToken, scope: p.scopes.join(" ") }, true, fetcher);
}
