// What the request line and Host header must look like before the app sees the request. Bun builds
// request.url from Host; for a missing or malformed one (`a@b.com`, `evil.com/x`) it leaves a bare
// path, and `new URL(request.url)` throws wherever it is called.

/** RFC 9110 §7.2: Host = uri-host [ ":" port ]: a DNS name, an IPv4 address or an [IPv6] literal. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * A request the app can build its URL from. A missing Host is refused too: only HTTP/1.0 may omit
 * it (Bun itself answers 400 to HTTP/1.1 without one, RFC 9112 §3.2), and the app's links, CORS and
 * logging all assume one.
 */
export function wellFormedHost(request: Request): boolean {
  const host = request.headers.get("host");
  return host !== null && HOST.test(host) && URL.canParse(request.url);
}

/** The path of a request URL for the log, without the query, even when the URL is not absolute. */
export function pathOf(url: string): string {
  const path = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)?([^?#]*)/.exec(url)?.[1];
  return path || "/";
}
