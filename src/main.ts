// Entry point. Exports nothing and avoids top-level await: `bun build --compile --bytecode`
// emits CommonJS and would otherwise try to serve the exports.
// `--content-helper ROLE` makes this process a content helper (src/mail/content/helper/): the
// single executable starts its own helpers that way. Each branch loads only what it needs.
import { HELPER_FLAG, isHelperRole, runHelper } from "./mail/content/helper/roles.ts";

const role = process.argv[2] === HELPER_FLAG ? process.argv[3] : undefined;
if (isHelperRole(role)) {
  runHelper(role).catch(() => process.exit(1));
} else {
  import("./cli.ts")
    .then(({ run }) => run(process.argv.slice(2), process.env))
    .then(
      (code) => {
        if (code !== null) process.exit(code);
      },
      (err: unknown) => {
        process.stderr.write(`mailbox-mcp: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
}
