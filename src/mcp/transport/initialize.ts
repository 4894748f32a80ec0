// Whether a /mcp body opens a 2025-era session: used by the endpoint (./endpoint.ts), which is built on
// the first /mcp request, so the SDK's schemas it asks are not loaded by an idle server.
import { isInitializeRequest } from "@modelcontextprotocol/server";

/** An initialize request, alone or in a batch (the transport rejects a batch with more). */
export function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}
