// The answers the routes build themselves, in one place: JSON, JSON that must not be cached, the
// setup and error pages, the 303 after the setup form, and which paths may never be cached. (Plain
// objects a route returns are Elysia's JSON; the SDK builds the /mcp answers.)
import { Elysia } from "elysia";

/**
 * Never cached, by any cache: RFC 6749 §5.1 asks for both headers on token responses (Pragma for
 * HTTP/1.0 caches); the setup pages carry secrets of the flow too (docs/oauth.md §7).
 */
export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const;

type Headers = Record<string, string>;

export function json(status: number, body: unknown, headers: Headers = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** JSON that no cache may keep: token-like answers and OAuth errors (RFC 6749 §5.1, §5.2). */
export function jsonNoStore(status: number, body: unknown, headers: Headers = {}): Response {
  return json(status, body, { ...NO_STORE, ...headers });
}

/** A page of src/views/, never cached, under `csp` (src/views/page.ts contentSecurityPolicy, with the page's nonce). */
export function html(page: string, status: number, csp: string, headers: Headers = {}): Response {
  return new Response(page, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", ...NO_STORE, "content-security-policy": csp, ...headers },
  });
}

/** 303 See Other, never 307: the browser must not send the form (and its password) again (RFC 9110 §15.4.4). */
export function seeOther(location: string, headers: Headers = {}): Response {
  return new Response(null, { status: 303, headers: { location, ...NO_STORE, ...headers } });
}

/**
 * NO_STORE on every answer for `paths`, whoever gives it: the route, a schema or body error, the
 * 404 for another method. A route file declares its own paths with it. Set in onRequest, the only
 * hook those answers all pass through (as the security headers are: docs/decisions.md "Service");
 * CORS preflights are answered before it and carry none.
 */
export function noStore(paths: string[]) {
  const covered = new Set(paths);
  return new Elysia({ name: "no-store", seed: paths })
    .onRequest(({ request, set }) => {
      if (covered.has(new URL(request.url).pathname)) Object.assign(set.headers, NO_STORE);
    })
    .as("global");
}
