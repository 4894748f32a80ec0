// The root file system of the container image, staged from files on this machine (no base image is
// pulled): the compiled executable, its ELF interpreter and the shared libraries it names (glibc),
// CA certificates, time-zone data, and a passwd/group naming the non-root user. Nothing else: no
// shell, no package manager. amd64 takes glibc from the host; arm64 from Debian's
// libc6-arm64-cross (/usr/aarch64-linux-gnu/lib), the same glibc built for aarch64.
import { $ } from "bun";
import { chmodSync, cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

export type Arch = "amd64" | "arm64";

/** The user the image runs as (`USER` in the Containerfile); any other `--user UID:GID` works too. */
export const IMAGE_UID = 10001;

interface ArchLibs {
  /** Where this arch's glibc libraries are read from here. */
  from: string;
  /** Where they go in the image: Debian's multiarch directory, on the interpreter's default search path. */
  to: string;
  /** The Debian package that provides `from`, for the message when it is missing. */
  pkg: string;
}

const LIBS: Record<Arch, ArchLibs> = {
  amd64: { from: "/lib/x86_64-linux-gnu", to: "/lib/x86_64-linux-gnu", pkg: "libc6" },
  arm64: { from: "/usr/aarch64-linux-gnu/lib", to: "/lib/aarch64-linux-gnu", pkg: "libc6-arm64-cross" },
};

/** The ELF interpreter (PT_INTERP) and the NEEDED libraries of an executable of either arch (readelf reads both). */
export async function elfNeeds(exe: string): Promise<{ interpreter: string; needed: string[] }> {
  const headers = await $`readelf -l -d ${exe}`.quiet().text();
  const interpreter = /Requesting program interpreter: ([^\]]+)\]/.exec(headers)?.[1];
  if (!interpreter) throw new Error(`${exe} names no ELF interpreter: is it a Linux executable?`);
  const needed = [...headers.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1]!);
  return { interpreter, needed: needed.filter((n) => n !== basename(interpreter)) };
}

/** Copies a file with its content (symlinks followed), making the parent directories. */
export function place(root: string, from: string, to: string, mode = 0o755): void {
  const dest = join(root, to);
  mkdirSync(join(dest, ".."), { recursive: true });
  cpSync(from, dest, { dereference: true });
  chmodSync(dest, mode);
}

async function placeLibs(root: string, exe: string, arch: Arch): Promise<void> {
  const libs = LIBS[arch];
  const { interpreter, needed } = await elfNeeds(exe);
  const file = (name: string) => join(libs.from, name);
  for (const name of [basename(interpreter), ...needed]) {
    if (!(await Bun.file(file(name)).exists())) throw new Error(`${file(name)} is missing: apt-get install ${libs.pkg}`);
  }
  place(root, file(basename(interpreter)), interpreter);
  for (const name of needed) place(root, file(name), join(libs.to, name), 0o644);
}

/**
 * Stages the build context `context` (emptied first) for `arch` from the executable `exe`: rootfs/ (copied
 * as root's) and data/, the empty data dir (mode 0700, as the server wants it), copied as the user's.
 */
export async function stageContext(context: string, exe: string, arch: Arch): Promise<void> {
  rmSync(context, { recursive: true, force: true });
  mkdirSync(join(context, "data"), { recursive: true, mode: 0o700 });
  chmodSync(join(context, "data"), 0o700);
  cpSync(join(import.meta.dir, "..", "Containerfile"), join(context, "Containerfile"));
  await stageRootfs(join(context, "rootfs"), exe, arch);
}

async function stageRootfs(root: string, exe: string, arch: Arch): Promise<void> {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  place(root, exe, "/usr/local/bin/mailbox-mcp");
  await placeLibs(root, exe, arch);
  place(root, "/etc/ssl/certs/ca-certificates.crt", "/etc/ssl/certs/ca-certificates.crt", 0o644);
  cpSync("/usr/share/zoneinfo", join(root, "usr/share/zoneinfo"), { recursive: true, dereference: true });
  mkdirSync(join(root, "etc"), { recursive: true });
  writeFileSync(join(root, "etc/passwd"), `root:x:0:0:root:/:/sbin/nologin\nmailbox:x:${IMAGE_UID}:${IMAGE_UID}:mailbox-mcp:/data:/sbin/nologin\n`);
  writeFileSync(join(root, "etc/group"), `root:x:0:\nmailbox:x:${IMAGE_UID}:\n`);
  writeFileSync(join(root, "etc/nsswitch.conf"), "hosts: files dns\n");
  mkdirSync(join(root, "tmp"), { mode: 0o1777 });
  chmodSync(join(root, "tmp"), 0o1777);
}
