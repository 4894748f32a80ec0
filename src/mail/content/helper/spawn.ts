// How a content helper process is started (docs/decisions.md "Content helpers"):
// - the same code as the server: the executable itself with `--content-helper ROLE` (src/main.ts),
//   or from a checkout `bun entry.ts ROLE`;
// - under a kernel memory limit: RLIMIT_DATA (the private writable memory a process may map) set by
//   /bin/sh's `ulimit -d` just before exec, so it holds from the process's first allocation. Set
//   later, from inside Bun, it would count the runtime's own start-up reservations; Bun has no
//   rlimit option to spawn with, and `Worker` `resourceLimits` are ignored (measured: a worker told
//   64 MB grew the process by 3.2 GB). Past the limit an allocation fails and the process dies
//   (JavaScriptCore crashes on it) or throws "Out of memory": either way the server is untouched;
// - with an empty environment (the server's holds its keys and database URL) and `/` as working
//   directory, so a checkout's `.env` or `bunfig.toml` is not read either.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HELPER_FLAG, type HelperRole } from "./roles.ts";

const ENTRY = fileURLToPath(new URL("./entry.ts", import.meta.url));
const SHELL = "/bin/sh";

/** True inside the single executable (bun build --compile), whose modules live under /$bunfs/. */
export const isCompiled = () => Bun.main.startsWith("/$bunfs/");

/**
 * The command that starts helper `role` with at most `dataMb` MB of data memory. A server already
 * running under a lower hard limit keeps it (ulimit cannot raise it): the helper then inherits that.
 * Outside Linux (where RLIMIT_DATA does not cover mmap) only the server's watchdog applies.
 */
export function helperCommand(role: HelperRole, dataMb: number): string[] {
  const target = isCompiled() ? [process.execPath, HELPER_FLAG, role] : [process.execPath, "--no-env-file", ENTRY, role];
  if (process.platform !== "linux" || !existsSync(SHELL)) return target;
  return [SHELL, "-c", `ulimit -d ${Math.round(dataMb * 1024)} 2>/dev/null; exec "$@"`, "mailbox-mcp-helper", ...target];
}

export function spawnHelper(role: HelperRole, dataMb: number) {
  return Bun.spawn(helperCommand(role, dataMb), { cwd: "/", env: {}, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
}
