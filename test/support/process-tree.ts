// Resident memory of a process and every process it started (its helpers), from /proc (Linux): what
// "the server grew by" means once part of its work runs in child processes (issue 19, item 1).
import { readdirSync, readFileSync } from "node:fs";

function parentOf(pid: string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]); // field 4, after "pid (comm) state"
  } catch {
    return null;
  }
}

function residentOf(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1] ?? 0) * 1024;
  } catch {
    return 0; // gone meanwhile
  }
}

/** Bytes resident in `root` and its descendants right now. */
export function treeResident(root: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(name);
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += residentOf(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples treeResident(root) every `everyMs` until stopped; `peak` is the highest seen. */
export function watchTree(root: number, everyMs = 20): { readonly peak: number; stop(): number } {
  let peak = treeResident(root);
  const timer = setInterval(() => { peak = Math.max(peak, treeResident(root)); }, everyMs);
  return {
    get peak() { return peak; },
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, treeResident(root));
      return peak;
    },
  };
}
