// The page of a minimal MCP Apps host (./app-host/host.ts, bundled for the browser once per run).
import { join } from "node:path";

let bundled: Promise<string> | undefined;

async function bundle(): Promise<string> {
  const out = await Bun.build({ entrypoints: [join(import.meta.dir, "app-host", "host.ts")], target: "browser", minify: true });
  if (!out.success) throw new Error(`the app host did not bundle: ${out.logs.join("\n")}`);
  return out.outputs[0]!.text();
}

/** An HTML page defining window.startHost(…) (see ./app-host/host.ts). */
export async function appHostPage(): Promise<string> {
  const js = await (bundled ??= bundle());
  // "</script" cannot occur in the bundle's own text once escaped this way.
  return `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body><script>${js.replace(/<\/script/gi, "<\\/script")}</script></body></html>`;
}
