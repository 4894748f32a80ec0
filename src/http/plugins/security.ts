// Security headers on every response (docs/contract.md §13) and CORS for the allowlisted
// origins only (docs/design.md §2). Set in onRequest so 404s, errors, HEAD, preflights and the MCP
// transport's own Response objects all carry them (docs/decisions.md "Service").
import { cors } from "@elysiajs/cors";
import { Elysia } from "elysia";
import type { Config } from "../../config.ts";

export const SECURITY_HEADERS = {
  "strict-transport-security": "max-age=63072000; includeSubDomains",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
} as const;

export function allowedOrigins(config: Pick<Config, "clientHosts" | "baseUrl" | "extraOrigins" | "siteOrigin">): Set<string> {
  const [a, b] = config.clientHosts;
  const origins = [`https://${a}`, `https://${b}`, config.baseUrl, ...config.extraOrigins];
  if (config.siteOrigin) origins.push(config.siteOrigin);
  return new Set(origins);
}

export function securityHeaders() {
  return new Elysia({ name: "security-headers" }).onRequest(({ set }) => {
    Object.assign(set.headers, SECURITY_HEADERS);
  }).as("global");
}

export function corsPolicy(config: Config) {
  const allowed = allowedOrigins(config);
  return cors({
    origin: (request: Request) => allowed.has(request.headers.get("origin") ?? ""),
    methods: ["GET", "POST", "DELETE", "OPTIONS"],
    // Mcp-Method and Mcp-Name: the request headers of MCP 2026-07-28 (the server checks them against the body).
    allowedHeaders: ["Authorization", "Content-Type", "Accept", "Mcp-Session-Id", "Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name", "Last-Event-ID"],
    exposeHeaders: ["Mcp-Session-Id", "WWW-Authenticate", "Mcp-Protocol-Version"],
    credentials: false, // bearer tokens, never cookies
    maxAge: 600,
  });
}
