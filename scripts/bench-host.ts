// `bun run bench`: the state of the machine a run measured, printed before the rows and again after
// them. This host's speed swings from hour to hour, and not evenly: JavaScript alone may run at its
// usual speed while everything that enters the kernel (a socket write, a page fault, an fsync) takes
// two or three times as long, and the loopback rows with it. So a run's figures carry four probes
// besides the load average: pure JavaScript, random reads from memory, a loopback TCP round trip to
// another process (back to back, and after idling), and a small synced write to the temp dir (where
// the bench's store lives); and,
// at the end, the share of the run's CPU time the hypervisor took (steal). Compare rows across runs
// only where these agree (docs/performance.md "How it is measured").
import { closeSync, fdatasyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const loads = () => loadavg().map((l) => l.toFixed(2)).join(" ");

/** Milliseconds of a fixed integer loop (30 M steps): the CPU as JavaScript sees it. */
function jsLoopMs(): number {
  const t = performance.now();
  let x = 0;
  for (let i = 0; i < 3e7; i++) x = (x * 31 + i) | 0;
  if (x === 0.5) console.log(x); // never true; keeps the loop from being optimized away
  return performance.now() - t;
}

/**
 * Nanoseconds per read of one long chain of random links through 64 MB (twice the L3 of this host's
 * CPU): memory latency, which neighbours on the host can raise while a loop in cache runs unchanged.
 */
function memoryReadNs(): number {
  const n = 1 << 24;
  const next = new Int32Array(n);
  for (let i = 0; i < n; i++) next[i] = i;
  // Sattolo's shuffle: one cycle through every slot, so the chain never settles into the cache.
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * i);
    [next[i], next[j]] = [next[j]!, next[i]!];
  }
  const steps = 2_000_000;
  const t = performance.now();
  let at = 0;
  for (let i = 0; i < steps; i++) at = next[at]!;
  if (at < 0) console.log(at); // never true; keeps the chain from being optimized away
  return ((performance.now() - t) / steps) * 1e6;
}

/** An echo server in a process of its own, as the mail server and the MCP server are to their clients. */
const ECHO = `const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: (c, d) => void c.write(d) } }); console.log(s.port);`;

/**
 * Median µs of a 16-byte ping-pong over loopback TCP with another process (a socket write and read on
 * each side and two wake-ups, the kernel work every loopback row repeats per command): back to back,
 * and after 5 ms of idling. The second is what this host varies most: a call that follows other
 * processes' work finds its own cold (a plain get_email measured 0.60 ms back to back, 1.17 ms with
 * 6 ms between calls, on one afternoon), and the bench's rows take turns.
 */
async function loopbackRoundTripUs(rounds = 1_000, idleRounds = 200): Promise<{ hot: number; afterIdle: number }> {
  const echo = Bun.spawn([process.execPath, "-e", ECHO], { stdout: "pipe", stderr: "inherit" });
  try {
    const reader = echo.stdout.getReader();
    const port = Number(new TextDecoder().decode((await reader.read()).value));
    reader.releaseLock();
    let pong: () => void = () => {};
    const client = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data: () => pong() } });
    const ping = Buffer.alloc(16, 1);
    const roundTrip = async () => {
      const t = performance.now();
      await new Promise<void>((resolve) => { pong = resolve; client.write(ping); });
      return (performance.now() - t) * 1000;
    };
    const hot: number[] = [];
    for (let i = 0; i < rounds; i++) hot.push(await roundTrip());
    const afterIdle: number[] = [];
    for (let i = 0; i < idleRounds; i++) {
      await Bun.sleep(5);
      afterIdle.push(await roundTrip());
    }
    client.end();
    return { hot: median(hot.slice(rounds / 10)), afterIdle: median(afterIdle) };
  } finally {
    echo.kill();
  }
}

/** Median ms of a 4 KB write and fdatasync, overwriting the start of one file (as SQLite's WAL does). */
function syncedWriteMs(rounds = 200): number {
  const dir = mkdtempSync(join(tmpdir(), "mailbox-mcp-bench-host-"));
  const fd = openSync(join(dir, "probe"), "w");
  const page = Buffer.alloc(4096, 7);
  const times: number[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const t = performance.now();
      writeSync(fd, page, 0, page.length, 0);
      fdatasyncSync(fd);
      times.push(performance.now() - t);
    }
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
  return median(times);
}

/** The CPU time counters of /proc/stat (jiffies, all CPUs): total and stolen; null where there is none. */
function cpuTimes(): { total: number; steal: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
  } catch {
    return null;
  }
}

export interface HostProbe {
  /** One line on the machine before the rows: cores, load, Bun, and the probes. */
  before: string;
  /** One line after the rows: the load average then, and the steal over the run. */
  after(): string;
}

export async function probeHost(): Promise<HostProbe> {
  const start = cpuTimes();
  const js = Math.min(jsLoopMs(), jsLoopMs(), jsLoopMs());
  const memory = memoryReadNs();
  const rtt = await loopbackRoundTripUs();
  const sync = syncedWriteMs();
  const before = `host: ${cpus().length} cores, load average ${loads()}, Bun ${Bun.version}; JS loop ${js.toFixed(0)} ms, ` +
    `random read from memory ${memory.toFixed(0)} ns, loopback TCP round trip to another process p50 ${rtt.hot.toFixed(0)} µs ` +
    `(${rtt.afterIdle.toFixed(0)} µs after 5 ms idle), ` +
    `4 KB write + fdatasync p50 ${sync.toFixed(2)} ms`;
  const after = () => {
    const end = cpuTimes();
    const steal = start && end && end.total > start.total ? `; CPU time stolen by the hypervisor during the run ${(((end.steal - start.steal) / (end.total - start.total)) * 100).toFixed(1)}%` : "";
    return `host at the end: load average ${loads()}${steal}`;
  };
  return { before, after };
}
