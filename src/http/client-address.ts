// The address the rate limiter counts a login attempt against. Behind a reverse proxy every
// request comes from the proxy, so with MAILBOX_MCP_TRUST_PROXY the last X-Forwarded-For hop
// (the one our own proxy appended) is used instead; otherwise the header is ignored, since any
// client can send it.
import type { Server } from "bun";

export function clientAddress(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map((h) => h.trim()).filter(Boolean);
    const last = hops.at(-1);
    if (last) return last;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
