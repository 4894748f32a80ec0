// The arm64 image (issue 46: "an arm64 image's executable starts under qemu-user when the machine
// has it"). These build machines have qemu-user (Debian's qemu-user-static, installed by
// `bun run test` when missing) but no binfmt_misc, so podman cannot *run* an arm64 container here:
// the image is built with podman, its file system exported, and the executable inside it started
// under qemu-aarch64-static with that file system as its root (-L), i.e. with the image's own
// loader and glibc. Run alone: bun run test test/image/arm64.test.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { $ } from "bun";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { buildImage } from "../../scripts/build-image.ts";
import { freePort } from "../support/dovecot.ts";
import { podman } from "../support/podman.ts";
import { until } from "../support/until.ts";

const ROOT = join(import.meta.dir, "..", "..");
const QEMU = "qemu-aarch64-static";
const TAG = `localhost/mailbox-mcp-test:arm64-run-${process.pid}`;
let work = "";
let rootfs = "";

/** The image's executable under qemu-user, its root the exported image; stdout and stderr piped. */
function underQemu(args: string[], env: Record<string, string> = {}) {
  return Bun.spawn([QEMU, "-L", rootfs, join(rootfs, "usr/local/bin/mailbox-mcp"), ...args], {
    env: { PATH: "/usr/bin:/bin", ...env }, stdout: "pipe", stderr: "pipe",
  });
}

beforeAll(async () => {
  if (!Bun.which(QEMU)) throw new Error(`${QEMU} is missing: apt-get install qemu-user-static (bun run test installs it)`);
  work = mkdtempSync(join(tmpdir(), "image-arm64-"));
  const compile = Bun.spawnSync(["bun", "scripts/build.ts", "--linux", "--outdir", work], { cwd: ROOT, stderr: "pipe" });
  if (compile.exitCode !== 0) throw new Error(`build failed: ${compile.stderr.toString()}`);
  await buildImage({ arch: "arm64", exe: join(work, "mailbox-mcp-linux-arm64"), tag: TAG, context: join(work, "context"), source: "https://example.test/mailbox-mcp" });
  const created = await podman("create", "--platform", "linux/arm64", TAG);
  try {
    await podman("export", "-o", join(work, "export.tar"), created);
  } finally {
    await podman("rm", created);
  }
  rootfs = join(work, "rootfs");
  mkdirSync(rootfs);
  await $`tar -xf ${join(work, "export.tar")} -C ${rootfs}`.quiet();
}, 240_000);

afterAll(async () => {
  await $`podman rmi -f ${TAG}`.quiet().nothrow();
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

describe("the arm64 image", () => {
  test("is an arm64 image whose executable is an aarch64 ELF with the image's own loader", async () => {
    const [info] = JSON.parse(await podman("image", "inspect", TAG)) as Array<{ Architecture: string; Os: string }>;
    expect([info!.Os, info!.Architecture]).toEqual(["linux", "arm64"]);
    const headers = await $`readelf -h -l ${join(rootfs, "usr/local/bin/mailbox-mcp")}`.quiet().text();
    expect(headers).toContain("AArch64");
    expect(headers).toContain("/lib/ld-linux-aarch64.so.1");
  });

  test("under qemu-user: --version names the version and the commit it was built from", async () => {
    const p = underQemu(["--version"]);
    const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    expect(code).toBe(0);
    expect(out.trim()).toMatch(new RegExp(`^${pkg.version.replaceAll(".", "\\.")} \\(commit ([0-9a-f]{12}(-dirty)?|unknown)\\)$`));
  }, 60_000);

  test("under qemu-user: serves /health, and SIGTERM ends it with exit 0", async () => {
    const data = join(work, "data");
    mkdirSync(data, { mode: 0o700 });
    const port = await freePort();
    const started = performance.now();
    const p = underQemu([], { MAILBOX_MCP_DATA_DIR: data, MAILBOX_MCP_PORT: String(port) });
    try {
      let health: unknown = null;
      await until(async () => (health = await fetch(`http://127.0.0.1:${port}/health`).then((r) => (r.ok ? r.json() : null), () => null)) !== null,
        { what: "the arm64 executable under qemu-user to answer /health", timeoutMs: 45_000 });
      console.log(`arm64 under qemu-user: start to /health ${Math.round(performance.now() - started)} ms (emulated)`);
      expect(health).toMatchObject({ status: "ok", version: pkg.version });
    } finally {
      p.kill("SIGTERM");
    }
    expect(await p.exited).toBe(0);
  }, 60_000);
});
