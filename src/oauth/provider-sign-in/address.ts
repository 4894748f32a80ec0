// The mailbox address a sign-in belongs to (docs/design.md §5 `address_from`): it is also the login
// name for XOAUTH2 / OAUTHBEARER. From the ID token that came with the tokens, from the provider's
// userinfo endpoint, or, for providers that reveal neither, from what the person typed on the form.
//
// The ID token's signature is not checked: it came straight from the token endpoint over TLS, in the
// answer to our own code exchange, which OpenID Connect Core §3.1.3.7 (6) accepts in place of a
// signature check. Whatever it says is then proven by the live IMAP login with the access token: a
// mail server refuses a token for another mailbox.
import type { OAuthProvider } from "./provider.ts";
import type { Fetch, TokenSet } from "./token-client.ts";
import { UpstreamError } from "./errors.ts";
import { cappedJson, MAX_PROVIDER_ANSWER } from "./capped-body.ts";
import { hasControlCharacter, isMailboxAddress } from "../setup/mailbox-address.ts";

/** The claims an address may come from (OIDC Core §5.1; Microsoft's preferred_username and upn). */
const ADDRESS_CLAIMS = ["email", "preferred_username", "upn"] as const;
const USERINFO_TIMEOUT_MS = 10_000;

/** The claims of a JWT's payload, or null when it is not one. */
export function jwtClaims(jwt: string): Record<string, unknown> | null {
  const part = jwt.split(".")[1];
  if (!part) return null;
  try {
    const claims = JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as unknown;
    return claims && typeof claims === "object" ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The address among the claims: `email` unless the provider says it is unverified (OIDC Core §5.1),
 * else Microsoft's `preferred_username` or `upn`, when they are addresses.
 */
export function addressFromClaims(claims: Record<string, unknown>): string | null {
  const candidates = [claims.email_verified === false ? null : claims.email, claims.preferred_username, claims.upn];
  for (const c of candidates) if (typeof c === "string" && isMailboxAddress(c.trim())) return c.trim();
  return null;
}

async function userinfo(p: OAuthProvider, accessToken: string, fetcher: Fetch): Promise<Record<string, unknown>> {
  let read: Awaited<ReturnType<typeof cappedJson>> = null;
  try {
    const res = await fetcher(p.userinfoEndpoint!, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
      redirect: "error",
      signal: AbortSignal.timeout(USERINFO_TIMEOUT_MS),
    });
    // Read with the cap before parsing (./capped-body.ts): a huge answer costs at most 64 KiB.
    read = res.ok ? await cappedJson(res) : null;
  } catch {}
  if (read === "too_large") {
    throw new UpstreamError("unavailable", `${p.name} answered with more than ${MAX_PROVIDER_ANSWER / 1024} KiB when asked which mailbox you signed in to; nothing of it was used. Try again; if it persists, whoever runs this server should check the provider's userinfo endpoint.`);
  }
  if (read) return read;
  throw new UpstreamError("unavailable", `${p.name} did not tell this server which mailbox you signed in to (its userinfo endpoint failed). Try again in a few minutes.`);
}

/** The mailbox address, or an UpstreamError saying why it could not be learnt. `typed`: the form's email field. */
export async function learnAddress(p: OAuthProvider, tokens: TokenSet, typed: string, fetcher: Fetch = fetch): Promise<string> {
  if (p.addressFrom === "form") {
    if (isMailboxAddress(typed)) return typed;
    throw new UpstreamError("refused", `Enter your ${p.name} email address on the form, then sign in again.`);
  }
  const claims = p.addressFrom === "userinfo" ? await userinfo(p, tokens.accessToken, fetcher) : tokens.idToken ? jwtClaims(tokens.idToken) : null;
  if (claims && ADDRESS_CLAIMS.some((k) => typeof claims[k] === "string" && hasControlCharacter(claims[k]))) {
    // Refused, not skipped for the next claim: an address with a control character is no mistake.
    throw new UpstreamError("misconfigured", `${p.name} named the mailbox you signed in to with a control character in the address ` +
      "(a line break or another invisible code), which this server does not accept. Nothing was stored.");
  }
  const address = claims ? addressFromClaims(claims) : null;
  if (address) return address;
  throw new UpstreamError("misconfigured",
    `${p.name} did not say which email address you signed in with. Whoever runs this server should check that the app asks for the openid and email scopes.`);
}
