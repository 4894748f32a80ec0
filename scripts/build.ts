// bun run build       → dist/mailbox-mcp (this machine's target: linux-x64 here)
// bun run build:all   → also linux-arm64 and darwin-arm64 (Bun fetches those runtimes from npm)
// --bytecode speeds start-up; the compiled binary must not read .env or bunfig.toml from
// whatever directory it is started in, so autoload is off.
import { $ } from "bun";

const targets: Array<[string, string]> = [["bun-linux-x64", "mailbox-mcp"]];
if (process.argv.includes("--all")) {
  targets.push(["bun-linux-arm64", "mailbox-mcp-linux-arm64"], ["bun-darwin-arm64", "mailbox-mcp-darwin-arm64"]);
}

for (const [target, name] of targets) {
  const started = performance.now();
  await $`bun build src/main.ts --compile --bytecode --minify --target=${target} --no-compile-autoload-dotenv --no-compile-autoload-bunfig --outfile dist/${name}`.quiet();
  const size = Bun.file(`dist/${name}`).size;
  console.log(`dist/${name}  ${(size / 1e6).toFixed(1)} MB  (${target}, ${Math.round(performance.now() - started)} ms)`);
}
