// The import graph of src/ (type-only and dynamic imports counted): no cycle of more than one file,
// and the layers of docs/architecture.md ("Layers point one way") as an allow-list. A new edge
// between layers fails here until it is added below and the document says so.
import { describe, expect, test } from "bun:test";
import { cycles, importGraph, specifiers } from "./import-graph.ts";

/**
 * The layer of a file: its folder under src/, or for a file at src/'s root the group it belongs
 * to. "base" is what every layer may use: configuration, logs, the clock, scopes, whose mailboxes
 * may connect, the send policy's names.
 */
function layerOf(file: string): string {
  const [, first, second] = file.split("/");
  if (second !== undefined) return first === "config" ? "base" : first!;
  const name = first!.replace(/\.tsx?$/, "");
  if (["main", "cli", "service", "composition"].includes(name)) return "entry";
  return "base";
}

/** Which layers each layer may import (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  entry: ["base", "http", "oauth", "mcp", "sending", "mail", "store", "views", "verbs"],
  http: ["base", "oauth", "mcp", "store", "views"],
  oauth: ["base", "mail", "store"],
  mcp: ["base", "sending", "mail", "store", "views"],
  sending: ["base", "mail", "store"],
  verbs: ["base", "oauth", "store"],
  views: ["base", "oauth", "mail"],
  mail: ["base"],
  store: ["base"],
  base: [],
};

/** Edges from one layer into another that the allow-list does not name, as "from -> to". */
function layerViolations(graph: Map<string, string[]>): string[] {
  const bad: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (!to.startsWith("src/")) continue; // package.json (the version), read by cli.ts
      const a = layerOf(from), b = layerOf(to);
      if (a !== b && !(ALLOWED[a] ?? []).includes(b)) bad.push(`${from} (${a}) -> ${to} (${b})`);
    }
  }
  return bad;
}

describe("the import graph of src/", () => {
  const graph = importGraph();

  test("reads every kind of import: type-only, re-exports, dynamic, multi-line; not a path in a comment", () => {
    const source = [
      `import type { A } from "./a.ts";`, `import { type B, c } from "./b.ts";`, `export { d } from "./d.ts";`,
      `export type { E } from "./e.ts";`, `import {\n  f,\n  g,\n} from "./f.ts";`, `const w = () => import("./w.ts");`,
      `import "./side.ts";`, `// import { x } from "./comment.ts";`, `/* import("./block.ts") */`,
    ].join("\n");
    expect(specifiers(source).sort()).toEqual(["./a.ts", "./b.ts", "./d.ts", "./e.ts", "./f.ts", "./side.ts", "./w.ts"]);
  });

  test("sees the files and their edges (a sanity check that the scan reads what it should)", () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get("src/mcp/server.ts")).toContain("src/mcp/tools/index.ts");
    // A type-only import is an edge too.
    expect(graph.get("src/mcp/completions.ts")).toContain("src/mcp/server-deps.ts");
  });

  test("has no import cycle of more than one file", () => {
    expect(cycles(graph)).toEqual([]);
  });

  test("finds a cycle when there is one (the check can fail)", () => {
    const g = new Map([...graph, ["src/mcp/server-deps.ts", [...graph.get("src/mcp/server-deps.ts")!, "src/mcp/server.ts"]]]);
    expect(cycles(g).some((c) => c.includes("src/mcp/server.ts") && c.includes("src/mcp/server-deps.ts"))).toBe(true);
  });

  test("points one way: every edge between layers is on the allow-list", () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  test("mail/ and store/ never import http/, oauth/, mcp/ or sending/; sending/ never imports mcp/ or http/", () => {
    for (const low of ["mail", "store"]) for (const high of ["http", "oauth", "mcp", "sending"]) expect(ALLOWED[low]).not.toContain(high);
    expect(ALLOWED.sending).not.toContain("mcp");
    expect(ALLOWED.sending).not.toContain("http");
    const g = new Map([...graph, ["src/store/grants.ts", [...graph.get("src/store/grants.ts")!, "src/mcp/runtime.ts"]]]);
    expect(layerViolations(g)).toEqual(["src/store/grants.ts (store) -> src/mcp/runtime.ts (mcp)"]);
  });
});
