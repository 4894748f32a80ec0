// How many IMAP connections the pool may hold at once (MAILBOX_MCP_IMAP_MAX_CONNECTIONS; docs/design.md
// §7). One connection per active mailbox is what keeps calls fast: past the cap, the least recently
// used idle connection is closed and its next call logs in afresh (a login costs the mail server
// ~11 ms of CPU and the caller several round trips). The default is what this machine can hold:
// a share of its memory at the measured cost of one open connection, and half of the file
// descriptors the process may open (the other half for HTTP clients, SMTP, the store, workers).
import { readFileSync } from "node:fs";
import { totalmem } from "node:os";

/**
 * Server memory one open pooled connection holds, measured by the bench's 1,000-mailbox row
 * (docs/design.md §7): the client object, its socket and parser buffers, the pool entry and the
 * mailbox's unsealed credentials. Rounded up.
 */
export const CONNECTION_BYTES = 150 * 1024;

/** The share of the machine's (or container's) memory the open connections may fill by default. */
export const MEMORY_SHARE = 0.25;

export interface MachineLimits {
  /** Memory this process may use: the machine's, or its container's limit when lower. */
  memoryBytes: number;
  /** File descriptors this process may open (Bun raises the soft limit to the hard one at start); null when unknown. */
  fileLimit: number | null;
}

/** The default cap for a machine: by memory and by file descriptors, whichever is lower; at least 1. */
export function defaultMaxConnections(m: MachineLimits): number {
  const byMemory = Math.floor((m.memoryBytes * MEMORY_SHARE) / CONNECTION_BYTES);
  const byFiles = m.fileLimit === null ? byMemory : Math.floor(m.fileLimit / 2);
  return Math.max(1, Math.min(byMemory, byFiles));
}

const readOr = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

/** A cgroup memory limit (v2 memory.max, v1 memory.limit_in_bytes), or null when unlimited or absent. */
export function cgroupMemoryLimit(read: (path: string) => string | null = readOr): number | null {
  for (const path of ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]) {
    const value = read(path)?.trim();
    if (!value || value === "max") continue;
    const n = Number(value);
    // cgroup v1 reports "no limit" as a huge number near 2^63.
    if (Number.isSafeInteger(n) && n > 0) return n;
  }
  return null;
}

/** The soft "Max open files" of this process (/proc/self/limits), or null where there is no /proc (macOS). */
export function openFileLimit(read: (path: string) => string | null = readOr): number | null {
  const line = read("/proc/self/limits")?.split("\n").find((l) => l.startsWith("Max open files"));
  const soft = line?.trim().split(/\s+/)[3];
  if (!soft || soft === "unlimited") return null;
  const n = Number(soft);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** This machine's limits as the process sees them now. */
export function machineLimits(): MachineLimits {
  const container = cgroupMemoryLimit();
  return { memoryBytes: Math.min(totalmem(), container ?? Infinity), fileLimit: openFileLimit() };
}
