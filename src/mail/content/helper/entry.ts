// A content helper started from a source checkout: `bun entry.ts ROLE` (./spawn.ts). The single
// executable starts one through src/main.ts instead.
import { isHelperRole, runHelper } from "./roles.ts";

const role = process.argv[2];
if (!isHelperRole(role)) {
  process.stderr.write(`unknown content helper role: ${role}\n`);
  process.exit(2);
}
await runHelper(role);
