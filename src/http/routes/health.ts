import { Elysia } from "elysia";

/** GET /health (docs/contract.md §10); HEAD is answered by Elysia with no body. */
export function healthRoutes(version: string) {
  const doc = { status: "ok", service: "mailbox-mcp", transport: "streamable-http", version };
  return new Elysia({ name: "health" }).get("/health", () => doc);
}
