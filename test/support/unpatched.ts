// The pristine upstream code of a dependency that bun patches at install (package.json
// `patchedDependencies`), for the tests that hold each patch to the behaviour it replaced
// (docs/performance.md "Patched dependencies").
//
// Why not a second install under an alias ("imapflow-upstream": "npm:imapflow@2.1.2")? bun applies a
// patch to every install of that name@version, an alias included (checked with bun 1.4.5), so the alias
// would be patched as well. Instead the installed package is copied to a temporary directory and its
// patch file reverse-applied there (`git apply -R`): that rebuilds the published files byte for byte
// (checked against the registry's tarball), needs no download, and fails loudly when the patch file no
// longer matches what is installed.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

export type UnpatchedCopy = {
  /** The copy's package directory: import its files by path. */
  dir: string;
  /** The package's installed (patched) directory. */
  installedDir: string;
  /** The files the patch touches, relative to the package directory. */
  files: string[];
  remove(): void;
};

/** The `name@version` key and patch file package.json names for a package (the version bun patches). */
function patchFor(name: string): { version: string; patch: string } {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const entries = Object.entries((manifest.patchedDependencies ?? {}) as Record<string, string>);
  const found = entries.find(([key]) => key.startsWith(`${name}@`) && !key.slice(name.length + 1).includes("@"));
  if (!found) throw new Error(`package.json patches no ${name}: remove the test that checks its patch`);
  return { version: found[0].slice(name.length + 1), patch: join(ROOT, found[1]) };
}

/** The paths a patch file changes (its `diff --git a/X b/X` headers). */
function patchedFiles(patch: string): string[] {
  return [...readFileSync(patch, "utf8").matchAll(/^diff --git a\/(\S+) b\/\S+$/gm)].map((m) => m[1]!);
}

/**
 * A copy of the installed `name` with its patch reverse-applied, in a temporary directory whose
 * node_modules is the project's (so the copy's own imports resolve as the installed package's do).
 * Call remove() when done.
 */
export function unpatchedCopy(name: string): UnpatchedCopy {
  const { version, patch } = patchFor(name);
  const installedDir = join(ROOT, "node_modules", name);
  const installed = JSON.parse(readFileSync(join(installedDir, "package.json"), "utf8")).version;
  if (installed !== version) throw new Error(`${name} ${installed} is installed, the patch is for ${version}: run bun install`);
  const root = mkdtempSync(join(tmpdir(), "unpatched-"));
  const remove = () => rmSync(root, { recursive: true, force: true });
  try {
    const dir = join(root, name);
    mkdirSync(dirname(dir), { recursive: true });
    cpSync(installedDir, dir, { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"));
    const files = patchedFiles(patch);
    reverseApply(patch, dir, files);
    return { dir, installedDir, files, remove };
  } catch (err) {
    remove();
    throw err;
  }
}

function reverseApply(patch: string, dir: string, files: string[]): void {
  const run = Bun.spawnSync(["git", "apply", "-R", "--verbose", patch], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const said = `${run.stdout.toString()}${run.stderr.toString()}`;
  if (run.exitCode !== 0) throw new Error(`${patch} does not reverse-apply to the installed package (bun install after changing it?):\n${said}`);
  // Inside another git work tree, git apply would skip the paths outside the current directory
  // without failing: every file must be reported applied.
  const missed = files.filter((f) => !said.includes(`Applied patch ${f} cleanly`));
  if (missed.length > 0) throw new Error(`git apply -R left ${missed.join(", ")} patched:\n${said}`);
}
