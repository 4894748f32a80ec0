// bun run test:unit [--list] [bun test args…]: the fast loop. Runs the test files that need no outside
// server — no Dovecot, SMTP test server, Postgres, Chromium, MCP Inspector or haproxy — in a few seconds,
// and installs nothing. `bun run test` still runs everything.
//
// Nothing to keep up to date by hand: a file is a unit test unless it (or a test helper it imports,
// followed through test/) takes one of the STARTERS below or imports a server package. A new test file
// is sorted by what it imports. And it cannot rot silently: the run sets MAILBOX_TEST_UNIT=1, under
// which each starter refuses to start its server (test/support/unit-guard.ts), so a test that reaches
// a server some other way fails loudly here instead of making the fast loop slow.
// --list prints each file with the reason it was left out.
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { UNIT_RUN_ENV } from "../test/support/unit-guard.ts";

const ROOT = join(import.meta.dir, "..");
const support = (name: string) => join(ROOT, "test", "support", name);

/** Helpers that start an outside server, by module and export. Their other exports (USERS, countRows…) are free. */
const STARTERS = new Map<string, string[]>([
  [support("harness.ts"), ["getHarness"]],
  [support("dovecot.ts"), ["startDovecot"]],
  [support("smtp.ts"), ["startSmtp"]],
  [support("postgres.ts"), ["startPostgres"]],
  [support("stores.ts"), ["BACKENDS", "freshDatabaseUrl", "sharedPostgres"]],
  [support("browser.ts"), ["launchChromium", "startBrowserApp"]],
  [support("inspector.ts"), ["startInspector"]],
  [support("haproxy.ts"), ["startHaproxy"]],
  [support("cluster.ts"), ["startCluster"]],
]);
/** Packages that are a server or a browser of their own. */
const SERVER_PACKAGES = ["smtp-server", "playwright-core"];

/**
 * Tests that need no server but wait for real time by design, which no clock can shorten
 * (a `bun run test:unit` run stops if one of these files is gone: the list must not outlive them).
 */
const SLOW: Record<string, string> = {
  "test/http/idle-timeout.test.ts": "waits out Bun's own idle timer (a 4 s tick): 6 s",
  "test/cli.test.ts": "starts the server and the CLI as processes, several Bun start-ups",
  "test/mail/content-helpers.test.ts": "lets helper processes run into their memory ceiling on PDFs built for it, and slow documents run: 5-15 s",
};

interface Import { from: string; names: string[] | "all" }

/** The value imports of a file (type-only ones cannot start anything): named bindings, or "all" for default, namespace, dynamic. */
function importsOf(source: string): Import[] {
  const out: Import[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s+(type\s+)?([\w*${},\s]*?)\s*from\s*["']([^"']+)["']/gm)) {
    if (m[1]) continue;
    const clause = m[2]!;
    const braces = /\{([^}]*)\}/.exec(clause);
    const outside = clause.replace(/\{[^}]*\}/, "").replace(/,/g, "").trim();
    if (outside) out.push({ from: m[3]!, names: "all" });
    else if (braces) {
      const names = braces[1]!.split(",").map((n) => n.trim()).filter((n) => n && !n.startsWith("type "))
        .map((n) => n.split(/\s+as\s+/)[0]!.trim());
      if (names.length) out.push({ from: m[3]!, names });
    }
  }
  for (const m of source.matchAll(/(?:^\s*import\s*|\bimport\s*\(\s*)["']([^"']+)["']/gm)) out.push({ from: m[1]!, names: "all" });
  return out;
}

/** Why `file` needs an outside server: the starters and packages it reaches; [] for a unit test. */
function serversReached(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const reasons: string[] = [];
  for (const imp of importsOf(readFileSync(file, "utf8"))) {
    if (!imp.from.startsWith(".")) {
      if (SERVER_PACKAGES.some((p) => imp.from === p || imp.from.startsWith(`${p}/`))) reasons.push(imp.from);
      continue;
    }
    const target = resolve(dirname(file), imp.from);
    const starters = STARTERS.get(target);
    if (starters) {
      const taken = imp.names === "all" ? starters : imp.names.filter((n) => starters.includes(n));
      reasons.push(...taken.map((n) => `${n} (${relative(ROOT, target)})`));
    } else if (target.startsWith(join(ROOT, "test")) && existsSync(target)) {
      reasons.push(...serversReached(target, seen));
    }
  }
  return [...new Set(reasons)];
}

const args = process.argv.slice(2);
const list = args.includes("--list");
const passOn = args.filter((a) => a !== "--list");

for (const path of Object.keys(SLOW)) {
  if (!existsSync(join(ROOT, path))) {
    console.error(`scripts/test-unit.ts: SLOW names ${path}, which no longer exists: update the list.`);
    process.exit(1);
  }
}

const files = [...new Glob("test/**/*.test.ts").scanSync(ROOT)].sort();
const unit: string[] = [];
for (const f of files) {
  const why = SLOW[f] ? [SLOW[f]] : serversReached(join(ROOT, f));
  if (why.length === 0) unit.push(f);
  if (list) console.log(why.length ? `  - ${f}: ${why.join(", ")}` : `unit ${f}`);
}
if (list) process.exit(0);

if (unit.length === 0) throw new Error("no unit test files found"); // bun test without paths would run them all
console.log(`test:unit: ${unit.length} of ${files.length} test files (the rest need a server or real time: bun run test)`);
if (!passOn.some((a) => a.startsWith("--timeout"))) passOn.unshift("--timeout", "30000"); // as scripts/test.ts
const started = performance.now();
const proc = Bun.spawn(["bun", "test", "--no-orphans", ...passOn, ...unit.map((f) => `./${f}`)], {
  cwd: ROOT, env: { ...process.env, [UNIT_RUN_ENV]: "1" }, stdio: ["inherit", "inherit", "inherit"],
});
const code = await proc.exited;
console.error(`test:unit: ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(code);
