import { Elysia } from "elysia";
import { protectedResourceMetadata, serverMetadata, type MetadataOptions } from "../../oauth/protocol/metadata.ts";

/** /oauth/meta and the well-known documents MCP clients discover (docs/design.md §2). */
export function discoveryRoutes(baseUrl: string, options: MetadataOptions) {
  const meta = serverMetadata(baseUrl, options);
  // Built on the first request for it: its builder is the SDK's, which an idle server does not load.
  let prm: ReturnType<typeof protectedResourceMetadata> | undefined;
  const resource = () => (prm ??= protectedResourceMetadata(baseUrl));
  return new Elysia({ name: "discovery" })
    .get("/oauth/meta", () => meta)
    .get("/.well-known/oauth-authorization-server", () => meta)
    .get("/.well-known/oauth-protected-resource", resource)
    .get("/.well-known/oauth-protected-resource/mcp", resource);
}
