import { Elysia } from "elysia";
import { protectedResourceMetadata, serverMetadata, type MetadataOptions } from "../../oauth/protocol/metadata.ts";

/** /oauth/meta and the well-known documents MCP clients discover (docs/design.md §2). */
export function discoveryRoutes(baseUrl: string, options: MetadataOptions) {
  const meta = serverMetadata(baseUrl, options);
  const prm = protectedResourceMetadata(baseUrl);
  return new Elysia({ name: "discovery" })
    .get("/oauth/meta", () => meta)
    .get("/.well-known/oauth-authorization-server", () => meta)
    .get("/.well-known/oauth-protected-resource", () => prm)
    .get("/.well-known/oauth-protected-resource/mcp", () => prm);
}
