// How a content helper process is started (docs/decisions.md "Content helpers"):
// - the same code as the server: the executable itself with `--content-helper ROLE` (src/main.ts),
//   or from a checkout `bun entry.ts ROLE`;
// - told its memory ceiling (MEMORY_ENV), which its own guard thread enforces (./memory-guard.ts);
// - with nothing else in its environment (the server's holds its keys and database URL) and `/` as
//   working directory, so a checkout's `.env` or `bunfig.toml` is not read either.
// Not a kernel rlimit: Bun sizes the JavaScript heap to RLIMIT_DATA or RLIMIT_AS (measured: a 16 MB
// heap under 512 MB or 1 GB, against ~110 MB without), and PDF.js then spends its time collecting
// garbage: 5-8 times slower on a 50-page PDF. Worker `resourceLimits` are ignored by Bun (a worker
// told 64 MB grew the process by 3.2 GB), and threads share the server's memory anyway.
import { fileURLToPath } from "node:url";
import { HELPER_FLAG, MEMORY_ENV } from "./protocol.ts";
import type { HelperRole } from "./roles.ts";

const ENTRY = fileURLToPath(new URL("./entry.ts", import.meta.url));

/** True inside the single executable (bun build --compile), whose modules live under /$bunfs/. */
export const isCompiled = () => Bun.main.startsWith("/$bunfs/");

/** The command that starts helper `role`. */
export function helperCommand(role: HelperRole): string[] {
  return isCompiled() ? [process.execPath, HELPER_FLAG, role] : [process.execPath, "--no-env-file", ENTRY, role];
}

export function spawnHelper(role: HelperRole, memoryMb: number) {
  return Bun.spawn(helperCommand(role), {
    cwd: "/", env: { [MEMORY_ENV]: String(memoryMb) }, stdin: "pipe", stdout: "pipe", stderr: "ignore",
  });
}
