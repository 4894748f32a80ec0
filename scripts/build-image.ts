// bun run build:image [--arch amd64|arm64] [--skip-build] [--archive] [--source URL]
// Builds the container image for linux/amd64 and linux/arm64 from the compiled executables, offline,
// with podman (Debian's; no registry is reached: the image starts from scratch). Tags:
// mailbox-mcp:VERSION-amd64, mailbox-mcp:VERSION-arm64, and the manifest list mailbox-mcp:VERSION
// naming both. --archive also writes dist/mailbox-mcp-image-VERSION.tar (OCI archive of both) for a release.
import { $ } from "bun";
import { join } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { buildCommit } from "../src/build-commit.ts";
import { stageContext, type Arch } from "./image-rootfs.ts";

const EXECUTABLES: Record<Arch, string> = { amd64: "dist/mailbox-mcp", arm64: "dist/mailbox-mcp-linux-arm64" };

export interface ImageOptions {
  arch: Arch;
  exe: string;
  tag: string;
  /** Where the build context is staged. */
  context: string;
  commit?: string;
  source?: string;
}

/** Where the code lives, for the org.opencontainers.image.source label: --source, else git's origin remote. */
async function sourceUrl(): Promise<string> {
  const origin = await $`git remote get-url origin`.quiet().nothrow();
  return origin.exitCode === 0 ? origin.text().trim() : "unknown";
}

/** Stages the context and builds one architecture's image; returns the image id. */
export async function buildImage(o: ImageOptions): Promise<string> {
  await stageContext(o.context, o.exe, o.arch);
  const args = [
    "--format", "docker", "--platform", `linux/${o.arch}`, "--tag", o.tag, "--quiet",
    "--build-arg", `VERSION=${pkg.version}`, "--build-arg", `COMMIT=${o.commit ?? buildCommit()}`,
    "--build-arg", `SOURCE=${o.source ?? (await sourceUrl())}`,
  ];
  return (await $`podman build ${args} ${o.context}`.quiet().text()).trim();
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const arches: Arch[] = option("--arch") ? [option("--arch") as Arch] : ["amd64", "arm64"];
  if (!argv.includes("--skip-build")) await $`bun scripts/build.ts --linux`;
  const list = `mailbox-mcp:${pkg.version}`;
  await $`podman manifest rm ${list}`.quiet().nothrow();
  await $`podman manifest create ${list}`.quiet();
  for (const arch of arches) {
    const started = performance.now();
    const tag = `mailbox-mcp:${pkg.version}-${arch}`;
    const id = await buildImage({ arch, exe: EXECUTABLES[arch], tag, context: join("dist", `image-${arch}`), source: option("--source") });
    await $`podman manifest add ${list} containers-storage:localhost/${tag}`.quiet();
    const size = Number((await $`podman image inspect --format {{.Size}} ${id}`.quiet().text()).trim());
    const exe = Bun.file(EXECUTABLES[arch]).size;
    console.log(`${tag}  ${(size / 1e6).toFixed(1)} MB (executable ${(exe / 1e6).toFixed(1)} MB, ×${(size / exe).toFixed(3)})  ${Math.round(performance.now() - started)} ms`);
  }
  if (argv.includes("--archive")) {
    const archive = `dist/mailbox-mcp-image-${pkg.version}.tar`;
    await $`rm -f ${archive}`;
    await $`podman manifest push --all ${list} oci-archive:${archive}`.quiet();
    console.log(archive);
  }
  console.log(`${list}: manifest list of ${arches.map((a) => `linux/${a}`).join(", ")}`);
}

if (import.meta.main) await main();
