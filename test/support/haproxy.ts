// Debian's haproxy in front of several server instances, as an operator would run it: round robin,
// no session affinity, long-lived SSE streams allowed. Foreground (-db), one per test file.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createConnection } from "node:net";
import { freePort } from "./ports.ts";
import { refuseInUnitRun } from "./unit-guard.ts";
import { until } from "./until.ts";

/** True when something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: "127.0.0.1", port }, () => { s.destroy(); resolve(true); });
    s.on("error", () => resolve(false));
  });
}

export const HAPROXY_INSTALL_HINT =
  'haproxy is not installed: run "apt-get install -y haproxy" (the test script does this for you: bun run test)';

export interface Haproxy {
  port: number;
  /** Its messages so far (stderr in the foreground), e.g. "Server instances/i1 is DOWN, reason: …". */
  output(): string;
  /** True once its health checks have taken backend `index` (in startHaproxy's order) out of rotation. */
  isDown(index: number): boolean;
  stop(): Promise<void>;
}

export interface HaproxyOptions {
  /**
   * Failed health checks (every 500 ms) before an instance is taken out; default 1, so a killed
   * instance is out within half a second. The bench uses more: on a busy machine a check can time
   * out, and an instance taken out for that would skew the calls-per-second figures.
   */
  fall?: number;
}

export function haproxyConfig(port: number, backends: number[], opts: HaproxyOptions = {}): string {
  return [
    "global",
    "  maxconn 2000",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 60s",
    "  timeout tunnel 1h", // a GET /mcp event stream lives long
    "  option http-server-close", // each request picks a backend afresh: no affinity at all
    // A request that cannot even connect (an instance just died, not yet marked down by the check)
    // is retried on another instance; one already sent is never replayed (retry-on conn-failure).
    "  retries 2",
    "  option redispatch 1",
    "frontend mcp",
    `  bind 127.0.0.1:${port}`,
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    // HTTP/1.1 with a Host: the bare `option httpchk GET /health` sends HTTP/1.0 without one, which
    // the server answers with 400 (no Host, no URL), so every instance would be marked down.
    "  option httpchk",
    "  http-check send meth GET uri /health ver HTTP/1.1 hdr Host localhost",
    ...backends.map((p, i) => `  server i${i} 127.0.0.1:${p} check inter 500 fall ${opts.fall ?? 1} rise 1`),
    "",
  ].join("\n");
}

/** `port`: where it listens (default a free one), e.g. the port the instances' base URL names. */
export async function startHaproxy(backends: number[], port?: number, opts: HaproxyOptions = {}): Promise<Haproxy> {
  refuseInUnitRun("haproxy");
  const bin = Bun.which("haproxy", { PATH: `${process.env.PATH}:/usr/sbin` });
  if (!bin) throw new Error(HAPROXY_INSTALL_HINT);
  const dir = mkdtempSync(join(process.env.MAILBOX_TEST_TMPDIR ?? tmpdir(), "mailbox-mcp-haproxy-"));
  port ??= await freePort();
  writeFileSync(join(dir, "haproxy.cfg"), haproxyConfig(port, backends, opts));
  const proc = Bun.spawn([bin, "-db", "-f", join(dir, "haproxy.cfg")], { stdout: "ignore", stderr: "pipe" });
  const kill = () => { try { proc.kill("SIGKILL"); } catch {} };
  process.on("exit", kill);
  const out: string[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) out.push(decoder.decode(chunk, { stream: true }));
  })();
  const output = () => out.join("");
  try {
    await until(async () => {
      if (proc.exitCode !== null) throw new Error(`exited (${proc.exitCode})`);
      return listening(port);
    }, { what: `haproxy to listen on ${port}`, timeoutMs: 5_000 });
  } catch (err) {
    kill();
    throw new Error(`haproxy did not start: ${(err as Error).message}\n${output().slice(-1000)}`);
  }
  return {
    port,
    output,
    isDown(index) {
      const states = [...output().matchAll(new RegExp(`Server instances/i${index} is (UP|DOWN)`, "g"))];
      return states.at(-1)?.[1] === "DOWN";
    },
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      process.off("exit", kill);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
