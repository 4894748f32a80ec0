// The IMAP pool's default cap (src/mail/imap/pool-size.ts): what the machine can hold, by memory and by
// file descriptors, read from cgroup files and /proc/self/limits.
import { describe, expect, test } from "bun:test";
import { cgroupMemoryLimit, CONNECTION_BYTES, defaultMaxConnections, machineLimits, MEMORY_SHARE, openFileLimit } from "../../src/mail/imap/pool-size.ts";

const GB = 1024 ** 3;
const files = (map: Record<string, string>) => (path: string) => map[path] ?? null;

describe("defaultMaxConnections", () => {
  test("a quarter of memory at the measured cost of a connection, when file descriptors allow it", () => {
    expect(defaultMaxConnections({ memoryBytes: 1 * GB, fileLimit: 1_000_000 })).toBe(Math.floor((GB * MEMORY_SHARE) / CONNECTION_BYTES));
  });

  test("half the file descriptors when they are the tighter bound (a 1024-file limit holds 512)", () => {
    expect(defaultMaxConnections({ memoryBytes: 64 * GB, fileLimit: 1024 })).toBe(512);
  });

  test("a thousand mailboxes fit a 1 GB container with the usual 65536-file limit; never below one", () => {
    expect(defaultMaxConnections({ memoryBytes: 1 * GB, fileLimit: 65536 })).toBeGreaterThanOrEqual(1000);
    expect(defaultMaxConnections({ memoryBytes: 1024, fileLimit: 1 })).toBe(1);
  });

  test("no file limit known (no /proc): memory alone", () => {
    expect(defaultMaxConnections({ memoryBytes: 2 * GB, fileLimit: null })).toBe(Math.floor((2 * GB * MEMORY_SHARE) / CONNECTION_BYTES));
  });
});

describe("machine limits", () => {
  test("cgroup v2 memory.max: a number is a limit, 'max' is none", () => {
    expect(cgroupMemoryLimit(files({ "/sys/fs/cgroup/memory.max": "536870912\n" }))).toBe(512 * 1024 * 1024);
    expect(cgroupMemoryLimit(files({ "/sys/fs/cgroup/memory.max": "max\n" }))).toBeNull();
  });

  test("cgroup v1 memory.limit_in_bytes; its 'unlimited' is a number near 2^63", () => {
    expect(cgroupMemoryLimit(files({ "/sys/fs/cgroup/memory/memory.limit_in_bytes": "1073741824\n" }))).toBe(GB);
    expect(cgroupMemoryLimit(files({ "/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n" }))).toBeNull();
    expect(cgroupMemoryLimit(files({}))).toBeNull();
  });

  test("the soft open-file limit from /proc/self/limits; none where there is no /proc", () => {
    const limits = "Limit                     Soft Limit           Hard Limit           Units     \n" +
      "Max cpu time              unlimited            unlimited            seconds   \n" +
      "Max open files            20000                20000                files     \n";
    expect(openFileLimit(files({ "/proc/self/limits": limits }))).toBe(20000);
    expect(openFileLimit(files({}))).toBeNull();
  });

  test("this machine: some memory, and a file limit on Linux", () => {
    const m = machineLimits();
    expect(m.memoryBytes).toBeGreaterThan(0);
    if (process.platform === "linux") expect(m.fileLimit).toBeGreaterThan(0);
  });
});
