// The object graph is built in one place (src/composition.ts buildService): the service, the tests
// (test/support/app.ts) and the bench's server all go through it, so no copy of the wiring can drift
// from the real one. This test finds the calls that build the graph's main parts anywhere else.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const COMPOSITION = "src/composition.ts";
/** What only the composition root builds: the MCP runtime, the endpoint (lazy or not), the app. */
const BUILDERS = [/\bnew McpRuntime\(/, /\blazyEndpoint\(/, /\bnew McpEndpoint\(/, /\bcreateApp\(/];
/** Where such a call is allowed besides the composition root, and why. */
const ALLOWED: Record<string, string> = {
  "src/mcp/transport/lazy-endpoint.ts": "the lazy endpoint builds the real one on the first request",
  "src/http/app.ts": "defines createApp",
  "test/http/foundation.test.ts": "adds a throwing route to the built graph's own deps to check the error mapping",
};

/** "path:line: text" for every builder call outside the composition root and ALLOWED. */
export function strayBuilders(files: Iterable<[path: string, text: string]>): string[] {
  const found: string[] = [];
  for (const [path, text] of files) {
    if (path === COMPOSITION || path in ALLOWED) continue;
    text.split("\n").forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, "").trim();
      if (code.startsWith("*") || code.startsWith("export function")) return;
      if (BUILDERS.some((b) => b.test(code))) found.push(`${path}:${i + 1}: ${code}`);
    });
  }
  return found;
}

function* sources(): Generator<[string, string]> {
  for (const path of new Bun.Glob("{src,test,scripts}/**/*.{ts,tsx}").scanSync(ROOT)) {
    if (path === "test/composition.test.ts") continue;
    yield [path, readFileSync(join(ROOT, path), "utf8")];
  }
}

describe("one composition root", () => {
  test("nothing but src/composition.ts builds the runtime, the endpoint or the app", () => {
    expect(strayBuilders(sources())).toEqual([]);
  });

  test("a second wiring is found, in a test's support file or in src/", () => {
    const copy = "const runtime = new McpRuntime(store.sessions, unseal, clock, log);\nconst app = createApp(deps); // wired again";
    expect(strayBuilders([["test/support/app.ts", copy], ["src/other.ts", "  const mcp = lazyEndpoint({ runtime });"]])).toEqual([
      "test/support/app.ts:1: const runtime = new McpRuntime(store.sessions, unseal, clock, log);",
      "test/support/app.ts:2: const app = createApp(deps);",
      "src/other.ts:1: const mcp = lazyEndpoint({ runtime });",
    ]);
  });
});
