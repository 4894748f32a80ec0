// Entry point. Exports nothing and avoids top-level await: `bun build --compile --bytecode`
// emits CommonJS and would otherwise try to serve the exports.
import { run } from "./cli.ts";

run(process.argv.slice(2), process.env).then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`mailbox-mcp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
