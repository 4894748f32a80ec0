// The commit a build was made from, for `mailbox-mcp --version`: scripts/build.ts defines
// MAILBOX_MCP_COMMIT in the compiled executable (bun build --define); from a checkout it is
// asked of git, and "unknown" where neither answers (a copy of the sources without .git).
declare const MAILBOX_MCP_COMMIT: string | undefined;

function commitFromGit(): string {
  try {
    const git = (args: string[]) => Bun.spawnSync(["git", ...args], { cwd: import.meta.dir, stderr: "ignore" });
    const head = git(["rev-parse", "--short=12", "HEAD"]);
    if (head.exitCode !== 0) return "unknown";
    const dirty = git(["status", "--porcelain", "--untracked-files=no"]).stdout.toString().trim() !== "";
    return `${head.stdout.toString().trim()}${dirty ? "-dirty" : ""}`;
  } catch {
    return "unknown"; // no git on PATH
  }
}

export function buildCommit(): string {
  return typeof MAILBOX_MCP_COMMIT === "string" ? MAILBOX_MCP_COMMIT : commitFromGit();
}

/** What --version prints: "0.1.0 (commit 1a2b3c4d5e6f)". */
export function versionLine(version: string): string {
  return `${version} (commit ${buildCommit()})`;
}
