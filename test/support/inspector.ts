// MCP Inspector 2.x (the npm package @modelcontextprotocol/inspector, a devDependency) started on loopback
// for the browser test: its web UI on a free port, pointed at one server URL, with a fresh storage dir so
// no registration from an earlier run is reused. Run with Bun: the package asks for Node ≥ 22.19, and
// this machine's Node is 20 (it starts there too, but Bun is the runtime the tests already have).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort } from "./ports.ts";
import { refuseInUnitRun } from "./unit-guard.ts";
import { until } from "./until.ts";

const LAUNCHER = join(import.meta.dir, "../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");

export interface Inspector {
  /** The URL its banner prints, API token included: what a person opens. */
  url: string;
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<ReturnType<typeof Bun.spawn>>();
process.on("exit", () => { for (const p of running) p.kill("SIGKILL"); });

async function drain(stream: ReadableStream<Uint8Array>, sink: string[]): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink.push(decoder.decode(chunk, { stream: true }));
}

export async function startInspector(serverUrl: string, timeoutMs = 30_000): Promise<Inspector> {
  refuseInUnitRun("MCP Inspector");
  const port = await freePort();
  const token = randomBytes(16).toString("hex");
  const home = mkdtempSync(join(tmpdir(), "mailbox-mcp-inspector-"));
  const proc = Bun.spawn([process.execPath, LAUNCHER, "--web", "--transport", "http", "--server-url", serverUrl], {
    env: {
      ...process.env, HOME: home, MCP_STORAGE_DIR: join(home, "storage"), MCP_INSPECTOR_SECRET_STORE: "memory",
      CLIENT_PORT: String(port), MCP_SANDBOX_PORT: "0", MCP_APP_ORIGIN_PORT: "0",
      MCP_INSPECTOR_API_TOKEN: token, MCP_AUTO_OPEN_ENABLED: "false", HOST: "127.0.0.1",
    },
    stdout: "pipe", stderr: "pipe",
  });
  running.add(proc);
  const out: string[] = [];
  void drain(proc.stdout, out);
  void drain(proc.stderr, out);
  const origin = `http://127.0.0.1:${port}`;
  const inspector: Inspector = {
    url: `${origin}/?MCP_INSPECTOR_API_TOKEN=${token}`,
    origin,
    output: () => out.join(""),
    async stop() {
      running.delete(proc);
      proc.kill("SIGTERM");
      await Promise.race([proc.exited, Bun.sleep(3000)]); // a bound, not a wait: past it, SIGKILL
      if (proc.exitCode === null) proc.kill("SIGKILL");
      rmSync(home, { recursive: true, force: true });
    },
  };
  try {
    await until(() => {
      if (proc.exitCode !== null) throw new Error(`it exited (${proc.exitCode})`);
      return /is up and running/.test(inspector.output());
    }, { what: "MCP Inspector's banner", timeoutMs });
  } catch (err) {
    await inspector.stop();
    throw new Error(`MCP Inspector did not start: ${(err as Error).message}:\n${inspector.output()}`);
  }
  return inspector;
}
