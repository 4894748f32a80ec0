// Local stand-ins for the third-party images the compose files name (postgres, haproxy, caddy): no
// registry is reachable from the test machines, so each is built FROM scratch out of Debian's own
// binaries here, with their ELF loader and libraries (`ldd`, host arch only), and passed to compose
// through the image variables. Cached in podman's store by a hash of the staged content: built
// once, reused by every later run until a Debian upgrade changes a file.
import { $ } from "bun";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { place } from "../../scripts/image-rootfs.ts";
import { podman } from "../support/podman.ts";

export interface StandIn {
  /** Short name: the image is localhost/mailbox-mcp-stand-in-NAME:HASH. */
  name: string;
  /** Writes the root file system under `root` (copied as root's). `owned/` is copied as `ownerUid`'s. */
  stage(root: string, owned: string): Promise<void>;
  /** The Containerfile lines after `FROM scratch` and the two COPY lines. */
  config: string[];
  ownerUid: number;
}

/** The shared libraries and ELF interpreter an executable (of this machine's arch) loads, transitively. */
async function loads(exe: string): Promise<string[]> {
  const out = await $`ldd ${exe}`.quiet().text();
  return [...out.matchAll(/(?:=> )?(\/\S+) \(0x/g)].map((m) => m[1]!);
}

/** Copies executables (or shared objects) to the same paths under root, with everything they load. */
export async function placeWithLibs(root: string, files: string[]): Promise<void> {
  const libs = new Set<string>();
  for (const f of files) {
    place(root, f, f);
    for (const lib of await loads(f)) libs.add(lib);
  }
  for (const lib of libs) place(root, lib, lib, 0o755);
}

/** A hash of every path, mode and content under dir: the cache key. */
function contentHash(dir: string, extra: string): string {
  const hash = new Bun.CryptoHasher("sha256").update(extra);
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      hash.update(`${relative(dir, p)}\0${st.mode}\0`);
      if (st.isDirectory()) walk(p);
      else hash.update(readFileSync(p));
    }
  };
  walk(dir);
  return hash.digest("hex").slice(0, 16);
}

const built = new Map<string, Promise<string>>();

/** The stand-in's image reference, built unless podman's store already holds this content. */
export function standInImage(s: StandIn): Promise<string> {
  if (!built.has(s.name)) built.set(s.name, build(s));
  return built.get(s.name)!;
}

async function build(s: StandIn): Promise<string> {
  const context = mkdtempSync(join(tmpdir(), `stand-in-${s.name}-`));
  try {
    mkdirSync(join(context, "rootfs"));
    mkdirSync(join(context, "owned"));
    await s.stage(join(context, "rootfs"), join(context, "owned"));
    const containerfile = ["FROM scratch", "COPY rootfs/ /", `COPY --chown=${s.ownerUid}:${s.ownerUid} owned/ /`, ...s.config].join("\n");
    writeFileSync(join(context, "Containerfile"), `${containerfile}\n`);
    const tag = `localhost/mailbox-mcp-stand-in-${s.name}:${contentHash(context, containerfile)}`;
    const exists = await $`podman image exists ${tag}`.quiet().nothrow();
    if (exists.exitCode !== 0) await podman("build", "--quiet", "--format", "docker", "--tag", tag, context);
    return tag;
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}
