// test/oauth/flow.ts speaks http://localhost URLs to app.handle(); this sends them to a running
// server (a container, a compose setup) at `base` instead.
import type { Handler } from "../oauth/flow.ts";

export const via = (base: string, init: RequestInit = {}): Handler => ({
  async handle(req) {
    const url = new URL(req.url);
    return fetch(`${base}${url.pathname}${url.search}`, {
      ...init, method: req.method, headers: req.headers, redirect: "manual",
      body: req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer(),
    });
  },
});
