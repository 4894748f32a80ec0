// bun run build [--outdir D] → dist/mailbox-mcp (linux-x64)
// bun run build:all   → also linux-arm64 and darwin-arm64 (Bun fetches those runtimes from npm)
// --linux             → linux-x64 and linux-arm64 only (what the container image needs)
// Each run writes SHA256SUMS beside what it built (`sha256sum -c SHA256SUMS` checks a download).
// --bytecode speeds start-up; the compiled binary must not read .env or bunfig.toml from
// whatever directory it is started in, so autoload is off. The commit is built in for --version.
// The content helpers (HTML→text, PDF→text) are this same executable started with
// `--content-helper ROLE` (src/main.ts, src/mail/content/helper/): no separate entry points.
import { $ } from "bun";
import { basename } from "node:path";
import { buildCommit } from "../src/build-commit.ts";

const outIndex = process.argv.indexOf("--outdir");
const outdir = outIndex > 0 ? process.argv[outIndex + 1]! : "dist";

const targets: Array<[string, string]> = [["bun-linux-x64", "mailbox-mcp"]];
if (process.argv.includes("--all") || process.argv.includes("--linux")) targets.push(["bun-linux-arm64", "mailbox-mcp-linux-arm64"]);
if (process.argv.includes("--all")) targets.push(["bun-darwin-arm64", "mailbox-mcp-darwin-arm64"]);

const commit = buildCommit();
const sums: string[] = [];
for (const [target, name] of targets) {
  const started = performance.now();
  const outfile = `${outdir}/${name}`;
  await $`bun build src/main.ts --compile --bytecode --minify --target=${target} --no-compile-autoload-dotenv --no-compile-autoload-bunfig --define=MAILBOX_MCP_COMMIT=${JSON.stringify(commit)} --outfile ${outfile}`.quiet();
  const bytes = await Bun.file(outfile).bytes();
  sums.push(`${new Bun.CryptoHasher("sha256").update(bytes).digest("hex")}  ${basename(outfile)}`);
  console.log(`${outfile}  ${(bytes.length / 1e6).toFixed(1)} MB  (${target}, commit ${commit}, ${Math.round(performance.now() - started)} ms)`);
}
await Bun.write(`${outdir}/SHA256SUMS`, `${sums.join("\n")}\n`);
console.log(`${outdir}/SHA256SUMS`);
