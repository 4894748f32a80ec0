// The mailbox-mcp image the image and compose tests run: compiled and built once per `bun test`
// process (both files share it), tagged with that process's id. It outlives the run so a second
// test file needs no rebuild; images left by runs whose process is gone are removed when the next
// one builds (never another live run's: several developers share this machine's podman store).
import { $ } from "bun";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildImage } from "../../scripts/build-image.ts";

const ROOT = join(import.meta.dir, "..", "..");
const REPO = "localhost/mailbox-mcp-test";

export interface TestImage {
  tag: string;
  /** Size of the compiled executable inside, bytes. */
  exeSize: number;
  /** Where the executable and the build context were written. */
  work: string;
}

let pending: Promise<TestImage> | null = null;

export function testImage(): Promise<TestImage> {
  pending ??= build();
  return pending;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function removeStale(): Promise<void> {
  const tags = (await $`podman images --format {{.Repository}}:{{.Tag}} ${REPO}`.quiet().nothrow().text()).split("\n");
  const stale = tags.filter((t) => /:run-\d+$/.test(t) && !alive(Number(t.split("-").pop())));
  if (stale.length) await $`podman rmi ${stale}`.quiet().nothrow();
}

async function build(): Promise<TestImage> {
  const t0 = performance.now();
  const work = mkdtempSync(join(tmpdir(), "image-"));
  const compile = Bun.spawnSync(["bun", "scripts/build.ts", "--outdir", work], { cwd: ROOT, stderr: "pipe" });
  if (compile.exitCode !== 0) throw new Error(`build failed: ${compile.stderr.toString()}`);
  const t1 = performance.now();
  await removeStale();
  const tag = `${REPO}:run-${process.pid}`;
  await buildImage({ arch: "amd64", exe: join(work, "mailbox-mcp"), tag, context: join(work, "context"), source: "https://example.test/mailbox-mcp" });
  console.log(`test image: executable built in ${Math.round(t1 - t0)} ms, image in ${Math.round(performance.now() - t1)} ms`);
  return { tag, exeSize: statSync(join(work, "mailbox-mcp")).size, work };
}
