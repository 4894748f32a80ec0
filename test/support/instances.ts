// mailbox-mcp instances as an operator runs them: `bun src/main.ts` child processes, each on its own
// loopback port, configured by environment only (docs/deploy.md). Their log lines are kept, so a test
// can tell which instance served a request; kill("SIGKILL") is the `kill -9` of a lost machine.
import { join } from "node:path";
import { tmpdir } from "node:os";
import { freePort } from "./ports.ts";
import { until } from "./until.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

export interface Instance {
  name: string;
  port: number;
  /** Every log line so far (stderr). */
  lines: string[];
  /** The request lines (method, path, status) this instance logged, /health checks left out. */
  requests(): Array<{ method: string; path: string; status: number }>;
  kill(signal?: "SIGKILL" | "SIGTERM"): Promise<void>;
}

const children = new Set<ReturnType<typeof Bun.spawn>>();
process.on("exit", () => children.forEach((c) => { try { c.kill("SIGKILL"); } catch {} }));

async function collect(stream: ReadableStream<Uint8Array>, lines: string[]): Promise<void> {
  let rest = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    rest += decoder.decode(chunk, { stream: true });
    const parts = rest.split("\n");
    rest = parts.pop()!;
    lines.push(...parts);
  }
}

async function healthy(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

/** Starts one instance with `env` (plus PATH and a HOME of its own) and waits for its /health. */
export async function startInstance(name: string, env: Record<string, string>, port?: number): Promise<Instance> {
  port ??= await freePort();
  const proc = Bun.spawn(["bun", MAIN, "serve"], {
    env: { PATH: process.env.PATH!, HOME: tmpdir(), MAILBOX_MCP_HOST: "127.0.0.1", MAILBOX_MCP_PORT: String(port), ...env },
    stdout: "ignore", stderr: "pipe",
  });
  children.add(proc);
  const lines: string[] = [];
  void collect(proc.stderr, lines);
  try {
    await until(async () => {
      if (proc.exitCode !== null) throw new Error(`it exited (${proc.exitCode})`);
      return healthy(port!);
    }, { what: `instance ${name} to answer /health`, timeoutMs: 20_000 });
  } catch (err) {
    proc.kill("SIGKILL");
    throw new Error(`instance ${name} did not start: ${(err as Error).message}: ${lines.slice(-5).join("\n")}`);
  }
  return {
    name,
    port,
    lines,
    requests() {
      const out: Array<{ method: string; path: string; status: number }> = [];
      for (const l of lines) {
        const m = / INFO request method=(\S+) path=(\S+) status=(\d+)/.exec(l);
        if (m && m[2] !== "/health") out.push({ method: m[1]!, path: m[2]!, status: Number(m[3]) });
      }
      return out;
    },
    async kill(signal = "SIGTERM") {
      proc.kill(signal);
      await proc.exited;
      children.delete(proc);
    },
  };
}

/** Runs the CLI to completion (e.g. an instance that must refuse to start): exit code and stderr. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const proc = Bun.spawn(["bun", MAIN, ...args], { env: { PATH: process.env.PATH!, HOME: tmpdir(), ...env }, stdout: "ignore", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  return { code, stderr };
}
