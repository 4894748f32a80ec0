// bun run build [--outdir D] → dist/mailbox-mcp (linux-x64)
// bun run build:all   → also linux-arm64 and darwin-arm64 (Bun fetches those runtimes from npm)
// --bytecode speeds start-up; the compiled binary must not read .env or bunfig.toml from
// whatever directory it is started in, so autoload is off.
// The content helpers (HTML→text, PDF→text) are this same executable started with
// `--content-helper ROLE` (src/main.ts, src/mail/content/helper/): no separate entry points.
import { $ } from "bun";

const outIndex = process.argv.indexOf("--outdir");
const outdir = outIndex > 0 ? process.argv[outIndex + 1]! : "dist";

const targets: Array<[string, string]> = [["bun-linux-x64", "mailbox-mcp"]];
if (process.argv.includes("--all")) {
  targets.push(["bun-linux-arm64", "mailbox-mcp-linux-arm64"], ["bun-darwin-arm64", "mailbox-mcp-darwin-arm64"]);
}

for (const [target, name] of targets) {
  const started = performance.now();
  await $`bun build src/main.ts --compile --bytecode --minify --target=${target} --no-compile-autoload-dotenv --no-compile-autoload-bunfig --outfile ${outdir}/${name}`.quiet();
  const size = Bun.file(`${outdir}/${name}`).size;
  console.log(`${outdir}/${name}  ${(size / 1e6).toFixed(1)} MB  (${target}, ${Math.round(performance.now() - started)} ms)`);
}
