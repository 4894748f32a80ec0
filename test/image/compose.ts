// Drives one compose project with Debian's podman-compose 1.0.3 the way the compose tests need it:
// runc (crun cannot start containers on these hosts) with the ulimits runc accepts, quiet (its
// output echoes every podman command, secrets included), named so parallel runs never collide.
import { join } from "node:path";
import { PODMAN, podman, ULIMITS } from "../support/podman.ts";

const ROOT = join(import.meta.dir, "..", "..");

export interface ComposeRun {
  exitCode: number;
  output: string;
}

export class ComposeProject {
  constructor(readonly name: string, readonly files: string[], readonly env: Record<string, string>) {}

  async run(...args: string[]): Promise<ComposeRun> {
    const argv = ["podman-compose", `--podman-args=--runtime=${PODMAN[2]}`, `--podman-run-args=${ULIMITS.join(" ")}`, "-p", this.name,
      ...this.files.flatMap((f) => ["-f", f]), ...args];
    const p = Bun.spawn(argv, { cwd: ROOT, env: { ...process.env, ...this.env }, stdout: "pipe", stderr: "pipe" });
    const [out, err, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { exitCode, output: `${out}\n${err}` };
  }

  async up(): Promise<void> {
    const r = await this.run("up", "-d");
    if (r.exitCode !== 0) throw new Error(`podman-compose up exited ${r.exitCode}: ${r.output.slice(-2000)}`);
  }

  /** Name → state of every container of the project (podman-compose labels them). */
  async containers(): Promise<Record<string, string>> {
    const out = await podman("ps", "-a", "--filter", `label=io.podman.compose.project=${this.name}`, "--format", "{{.Names}} {{.State}}");
    return Object.fromEntries(out.split("\n").filter(Boolean).map((l) => l.split(" ") as [string, string]));
  }

  /** The container's address on the project network (reachable from this host, nowhere else). */
  async address(service: string): Promise<string> {
    return podman("inspect", `${this.name}_${service}_1`, "--format", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}");
  }

  /** The host's address on the project network: where its containers reach this machine. */
  async gateway(): Promise<string> {
    return podman("network", "inspect", `${this.name}_default`, "--format", "{{range .Subnets}}{{.Gateway}}{{end}}");
  }

  /** Cleanup whatever state the project is in: containers, its network and its volumes (never throws). */
  async remove(volumes: string[]): Promise<void> {
    await this.run("down").catch(() => undefined);
    const names = Object.keys(await this.containers().catch(() => ({})));
    if (names.length) await podman("rm", "-f", "-t", "0", ...names).catch(() => undefined);
    await podman("network", "rm", "-f", `${this.name}_default`).catch(() => undefined);
    for (const v of volumes) await podman("volume", "rm", "-f", `${this.name}_${v}`).catch(() => undefined);
  }
}
