// podman as the image and compose tests drive it. On these hosts Debian's default runtime (crun)
// cannot start containers (cgroup v1 hybrid, setrlimit refused): runc with explicit ulimits can.
import { $ } from "bun";

export const PODMAN = ["podman", "--runtime", "runc"];
export const ULIMITS = ["--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"];

/** Runs podman; throws with its stderr when it fails. Returns stdout, trimmed. */
export async function podman(...args: string[]): Promise<string> {
  const p = Bun.spawn([...PODMAN, ...args], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`podman ${args.join(" ")} exited ${code}: ${err.trim()}`);
  return out.trim();
}

/** Removes containers and volumes by name, whatever state they are in (cleanup; never throws). */
export async function removeAll(containers: string[], volumes: string[] = []): Promise<void> {
  if (containers.length) await $`${PODMAN} rm -f -t 0 ${containers}`.quiet().nothrow();
  if (volumes.length) await $`${PODMAN} volume rm -f ${volumes}`.quiet().nothrow();
}
