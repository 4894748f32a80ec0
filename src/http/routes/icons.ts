// GET /icons/NAME-SIZE.png: the icons MCP hosts show for the server, its tools, prompts and the
// message resource (src/mcp/icons/icons.ts). Public and the same for everyone, so cacheable for a
// day; an unknown name is the ordinary 404.
import { Elysia, NotFoundError } from "elysia";
import { iconPng } from "../../mcp/icons/icons.ts";

export function iconRoutes() {
  return new Elysia({ name: "icons" }).get("/icons/:file", ({ params }) => {
    const png = iconPng(params.file);
    if (!png) throw new NotFoundError();
    return new Response(png, { headers: { "content-type": "image/png", "cache-control": "public, max-age=86400" } });
  });
}
