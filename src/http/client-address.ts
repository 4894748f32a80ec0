// The address the rate limiter counts a request against. Behind a reverse proxy every request comes
// from the proxy, so with MAILBOX_MCP_TRUST_PROXY the last X-Forwarded-For hop (the one our own proxy
// appended) is used instead; otherwise the header is ignored, since any client can send it. Either
// way the address is reduced to one canonical form (src/oauth/rate-limits/client-key.ts): a port, brackets,
// an IPv4-mapped prefix or another spelling must not make a fresh client. A hop that names no
// address is not trusted as anyone: the request counts against the proxy's own address.
import type { Server } from "bun";
import { canonicalAddress } from "../oauth/rate-limits/client-key.ts";

export function clientAddress(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map((h) => h.trim()).filter(Boolean);
    const last = hops.at(-1);
    const forwarded = last === undefined ? null : canonicalAddress(last);
    if (forwarded) return forwarded;
  }
  const peer = server?.requestIP(request)?.address;
  return peer === undefined ? "unknown" : canonicalAddress(peer) ?? peer;
}
