// The import graph of src/, read from the source text: every static `import` and `export … from`,
// type-only ones included (Bun.Transpiler's scanImports drops those), and every dynamic
// `import("…")` with a literal path. Only paths inside the repository are followed; packages and
// node:/bun: modules are left out. Used by the architecture tests beside it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..", "..");
export const SRC = join(ROOT, "src");

/** `from "x"` after import/export (type-only too), a bare `import "x"`, and `import("x")`. */
const STATIC = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:([\w*{}\s,$]+?)\s+from\s+)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The code without comments: a path named in a comment is not an import. */
export function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "").replace(/([;{}(),])\s*\/\/.*$/gm, "$1");
}

export interface ImportStatement {
  spec: string;
  /** `import type …`, or every name in braces marked `type`: no value crosses. */
  typeOnly: boolean;
}

/** The imports of a source text: static ones first, then dynamic ones. */
export function imports(source: string): ImportStatement[] {
  const code = stripComments(source);
  const allTypes = (names: string | undefined) =>
    names !== undefined && /^\s*\{[^}]*\}\s*$/.test(names) && names.replace(/[{}]/g, "").split(",").map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith("type "));
  return [
    ...[...code.matchAll(STATIC)].map((m) => ({ spec: m[3]!, typeOnly: m[1] !== undefined || allTypes(m[2]) })),
    ...[...code.matchAll(DYNAMIC)].map((m) => ({ spec: m[1]!, typeOnly: false })),
  ];
}

/** The specifiers a source text imports, in order. */
export function specifiers(source: string): string[] {
  return imports(source).map((i) => i.spec);
}

export function resolveSpecifier(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  for (const p of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  throw new Error(`${relative(ROOT, from)}: cannot resolve import "${spec}"`);
}

export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts") ? [p] : [];
  });
}

/** File (relative to the repository, e.g. "src/mcp/server.ts") → the repository files it imports. */
export function importGraph(files = sourceFiles(), read = (f: string) => readFileSync(f, "utf8")): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(read(file)).map((s) => resolveSpecifier(file, s)).filter((t): t is string => t !== null);
    graph.set(relative(ROOT, file), [...new Set(targets.map((t) => relative(ROOT, t)))]);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each sorted. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}
