// The redirect URI allowlist (SPEC "Allowed redirect URIs") and the success redirect.
// RFC 6749 §3.1.2.3 / OAuth 2.1 §7.5.3: compare registered URIs by exact string match.
import type { Config } from "../config.ts";

export function allowedRedirectUris(config: Pick<Config, "clientHosts" | "extraRedirectUris">): Set<string> {
  const [a, b] = config.clientHosts;
  return new Set([
    `https://${a}/api/mcp/auth_callback`,
    `https://${b}/api/mcp/auth_callback`,
    "http://localhost:6274/oauth/callback",
    "http://localhost:6274/oauth/callback/debug",
    ...config.extraRedirectUris,
  ]);
}

/** Exact match: no normalisation, so a trailing slash, another port, scheme or path is refused. */
export function isAllowedRedirect(allowed: Set<string>, uri: string): boolean {
  return allowed.has(uri);
}

/**
 * RFC 6749 §4.1.2: the redirect carries `code` and the unchanged `state`, added to the URI's existing
 * query (§3.1.2 allows a query component, which must be retained). RFC 9207 §2: and `iss`, our issuer
 * identifier, so a client that uses one callback for many servers (hosted clients do) can tell
 * which server answered: the mix-up defence of RFC 9700 §4.4.
 */
export function successRedirect(redirectUri: string, code: string, state: string, issuer: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set("code", code);
  url.searchParams.set("state", state);
  url.searchParams.set("iss", issuer);
  return url.href;
}

/** The origin a browser will be sent to, for CSP form-action; null for non-web schemes. */
export function redirectOrigin(redirectUri: string): string | null {
  const origin = URL.canParse(redirectUri) ? new URL(redirectUri).origin : "null";
  return origin === "null" ? null : origin;
}

/** The host shown on the setup form so the person knows which app they authorize. */
export function redirectHost(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.host || url.protocol.replace(/:$/, "");
}
