// A private, throw-away Postgres for the store and cluster tests: Debian's `postgresql` binaries,
// `initdb` + `pg_ctl` on a temp dir, loopback only, no system service. initdb refuses to run as
// root, so as root the cluster belongs to the `postgres` user the package creates.
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./ports.ts";
import { refuseInUnitRun } from "./unit-guard.ts";

export const PG_INSTALL_HINT =
  'Postgres is not installed: run "apt-get install -y postgresql" (the test script does this for you: bun run test)';

export interface PostgresServer {
  port: number;
  /** postgres://… for a database of its own, created by `database()`. */
  database(name: string): Promise<string>;
  /** Stops it as an outage would (fast: clients are cut off) and starts it again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** initdb and pg_ctl of the newest installed major version, or null. */
export function postgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

const running = new Set<{ bin: string; dir: string; asUser: string[] }>();
process.on("exit", () => {
  for (const pg of running) {
    Bun.spawnSync([...pg.asUser, join(pg.bin, "pg_ctl"), "-D", join(pg.dir, "data"), "-m", "immediate", "stop"], { stdout: "ignore", stderr: "ignore" });
    rmSync(pg.dir, { recursive: true, force: true });
  }
});

async function run(cmd: string[], what: string): Promise<void> {
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${what} failed (exit ${code}): ${(err || out).slice(-1500)}`);
}

export async function startPostgres(): Promise<PostgresServer> {
  refuseInUnitRun("Postgres");
  const bin = postgresBin();
  if (!bin) throw new Error(PG_INSTALL_HINT);
  const root = process.getuid?.() === 0;
  const asUser = root ? ["runuser", "-u", "postgres", "--"] : [];
  const dir = mkdtempSync(join(process.env.MAILBOX_TEST_TMPDIR ?? tmpdir(), "mailbox-mcp-pg-"));
  if (root) {
    const id = (flag: string) => Number(Bun.spawnSync(["id", flag, "postgres"]).stdout.toString().trim());
    chownSync(dir, id("-u"), id("-g"));
  }
  const port = await freePort();
  const pg = { bin, dir, asUser };
  await run([...asUser, join(bin, "initdb"), "-D", join(dir, "data"), "-U", "mailbox", "--auth=trust", "-E", "UTF8", "--no-sync"], "initdb");
  running.add(pg);
  // max_connections: every store opened by a test (and each cluster instance) holds a small pool.
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300`;
  await run([...asUser, join(bin, "pg_ctl"), "-D", join(dir, "data"), "-l", join(dir, "log"), "-o", opts, "-w", "-t", "30", "start"], "pg_ctl start");
  const admin = new Bun.SQL(`postgres://mailbox@127.0.0.1:${port}/postgres`);
  const pgCtl = (...args: string[]) => run([...asUser, join(bin, "pg_ctl"), "-D", join(dir, "data"), ...args], `pg_ctl ${args.at(-1)}`);
  return {
    port,
    async restart() {
      await pgCtl("-m", "fast", "-w", "stop");
      await pgCtl("-l", join(dir, "log"), "-o", opts, "-w", "-t", "30", "start");
    },
    async database(name) {
      await admin.unsafe(`CREATE DATABASE "${name.replace(/[^a-z0-9_]/gi, "")}"`);
      return `postgres://mailbox@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await admin.close().catch(() => {});
      await run([...asUser, join(bin, "pg_ctl"), "-D", join(dir, "data"), "-m", "fast", "-w", "stop"], "pg_ctl stop").catch(() => {});
      running.delete(pg);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
