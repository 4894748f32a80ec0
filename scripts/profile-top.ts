// `bun scripts/profile-top.ts FILE.cpuprofile [N]`: the top N functions (default 15) of a CPU profile
// by self time and by inclusive time, as two markdown tables (docs/performance.md). A function is its
// name and source location; inclusive time counts a function once per sample however deep it recurses.
// Profiles come from `bun --cpu-prof` (the bench writes one per server with BENCH_PROFILE=DIR).

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** A readable frame: `name file:line`, node_modules and the repository root cut off. */
function label(f: CallFrame): string {
  const where = f.url.replace(/^file:\/\//, "").replace(/.*node_modules\//, "").replace(/^.*?\/(src|scripts|test)\//, "$1/");
  return `${f.functionName || "(anonymous)"} ${where ? `${where}:${f.lineNumber + 1}` : "(native)"}`;
}

export function topFunctions(p: Profile, n: number): { self: Array<[string, number]>; inclusive: Array<[string, number]>; totalMs: number } {
  const byId = new Map(p.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of p.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  p.samples.forEach((leaf, i) => {
    const w = p.timeDeltas[i + 1] ?? p.timeDeltas[i] ?? 0;
    total += w;
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const key = label(byId.get(id)!.callFrame);
      if (id === leaf) self.set(key, (self.get(key) ?? 0) + w);
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + w);
      seen.add(key);
    }
  });
  const top = (m: Map<string, number>, skip: RegExp) => [...m].filter(([k]) => !skip.test(k)).sort((a, b) => b[1] - a[1]).slice(0, n);
  // Inclusive time of the event loop's own frames (anonymous native callers, the microtask runner) is "everything".
  return {
    self: top(self, /^\((root|program|idle)\)/),
    inclusive: top(inclusive, /^(\((root|program|idle|anonymous)\) \(native\)|processTicksAndRejections )/),
    totalMs: total / 1000,
  };
}

function table(title: string, rows: Array<[string, number]>, total: number): string {
  const lines = rows.map(([k, v]) => `| ${((v / total) * 100).toFixed(1)}% | \`${k.replace(/\|/g, "\\|")}\` |`);
  return [`| ${title} | function |`, "|---:|---|", ...lines].join("\n");
}

if (import.meta.main) {
  const [file, count] = process.argv.slice(2);
  if (!file) throw new Error("usage: bun scripts/profile-top.ts FILE.cpuprofile [N]");
  const t = topFunctions((await Bun.file(file).json()) as Profile, Number(count ?? 15));
  const total = t.totalMs * 1000;
  console.log(`${(t.totalMs / 1000).toFixed(1)} s sampled\n\n${table("self", t.self, total)}\n\n${table("inclusive", t.inclusive, total)}`);
}
