// test/oauth/flow.ts speaks http://localhost URLs to app.handle(); this sends them to a running
// server (a container, a compose setup) at `base` instead. `init` adds to every request: headers
// (a Host naming the public domain) and fetch options (Bun's `tls` with a private CA).
import type { Handler } from "../oauth/flow.ts";

export const via = (base: string, init: RequestInit = {}): Handler => ({
  async handle(req) {
    const url = new URL(req.url);
    const headers = new Headers(init.headers);
    req.headers.forEach((value, name) => headers.set(name, value));
    return fetch(`${base}${url.pathname}${url.search}`, {
      ...init, method: req.method, headers, redirect: "manual", signal: req.signal,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer(),
    });
  },
});
