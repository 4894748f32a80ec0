// The redirect URI allowlist (docs/contract.md §2.5) and the success redirect.
// RFC 6749 §3.1.2.3 / OAuth 2.1 §7.5.3: compare registered URIs by exact string match.
import type { Config } from "../../config.ts";

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

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A loopback redirect URI of a native app (RFC 8252 §7.3): `http` to localhost, 127.0.0.1 or [::1]
 * with any port; no user info and no fragment (RFC 6749 §3.1.2). The parsed URL, or null.
 */
export function loopbackRedirect(uri: string): URL | null {
  if (!URL.canParse(uri) || uri.includes("#")) return null;
  const url = new URL(uri);
  if (url.protocol !== "http:" || !LOOPBACK_HOSTS.has(url.hostname) || url.username || url.password) return null;
  return url;
}

/** RFC 8252 §7.3: a loopback URI matches a registered one whatever its port; host, path and query must be equal. */
export function sameLoopbackIgnoringPort(registered: string, requested: string): boolean {
  const a = loopbackRedirect(registered);
  const b = loopbackRedirect(requested);
  return !!a && !!b && a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search;
}

/**
 * A loopback entry the operator listed in MAILBOX_MCP_EXTRA_REDIRECT_URIS for the configured client
 * (docs/design.md §3): any port (RFC 8252 §7.3), and any of the loopback names for the listed one,
 * because the person who wrote `localhost` into the list cannot know that a client says `127.0.0.1`
 * (Codex CLI does; RFC 8252 §8.3 even recommends it). Every loopback name is the machine that runs
 * the browser, so the code goes nowhere else; scheme, path and query must still be equal.
 */
export function sameLoopbackAnyPortOrName(listed: string, requested: string): boolean {
  const a = loopbackRedirect(listed);
  const b = loopbackRedirect(requested);
  return !!a && !!b && a.pathname === b.pathname && a.search === b.search;
}

/**
 * RFC 6749 §4.1.2: the redirect carries `code` and the unchanged `state` — only when the request had one
 * ("REQUIRED if the state parameter was present"; OAuth 2.1 §4.1.1 lets a PKCE client leave it out) —
 * added to the URI's existing query (§3.1.2 allows a query component, which must be retained). RFC 9207 §2: and `iss`, our issuer
 * identifier, so a client that uses one callback for many servers (hosted clients do) can tell
 * which server answered: the mix-up defence of RFC 9700 §4.4.
 */
export function successRedirect(redirectUri: string, code: string, state: string | null, issuer: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set("code", code);
  if (state !== null) url.searchParams.set("state", state);
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
