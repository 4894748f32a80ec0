// The CLI as a user runs it: a real process, a real port, an empty data dir.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../package.json" with { type: "json" };

const MAIN = join(import.meta.dir, "..", "src", "main.ts");
const dataDir = join(mkdtempSync(join(tmpdir(), "cli-")), "data");
const children: Array<ReturnType<typeof Bun.spawn>> = [];
afterAll(() => children.forEach((c) => c.kill("SIGKILL")));

async function cli(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawn(["bun", MAIN, ...args], { env: { PATH: process.env.PATH!, HOME: tmpdir(), ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

function freePort(): number {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

describe("mailbox-mcp CLI", () => {
  test("--help and --version", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("mailbox-mcp client");
    expect(help.stdout).toContain("MAILBOX_MCP_BASE_URL");
    expect((await cli(["--version"])).stdout.trim()).toBe(pkg.version);
  });

  test("a bad value stops start-up with one line naming the key", async () => {
    const r = await cli([], { MAILBOX_MCP_PORT: "0x50", MAILBOX_MCP_DATA_DIR: dataDir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("MAILBOX_MCP_PORT");
  });

  test("serve, healthcheck, and a restart that keeps the client id", async () => {
    const port = String(freePort());
    const env = { MAILBOX_MCP_DATA_DIR: dataDir, MAILBOX_MCP_PORT: port };
    expect((await cli(["healthcheck"], env)).code).toBe(1);
    const server = Bun.spawn(["bun", MAIN], { env: { PATH: process.env.PATH!, ...env }, stdout: "ignore", stderr: "pipe" });
    children.push(server);
    let ok = false;
    for (let i = 0; i < 100 && !ok; i++) {
      ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
      if (!ok) await Bun.sleep(50);
    }
    expect(ok).toBe(true);
    expect((await cli(["healthcheck"], env)).code).toBe(0);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
    const first = await cli(["client"], env);
    server.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const second = await cli(["client"], env);
    const id = (s: string) => /Client ID\s+: (\S+)/.exec(s)?.[1];
    expect(id(first.stdout)).toMatch(/^mailbox-mcp-[0-9a-f]{16}$/);
    expect(id(second.stdout)).toBe(id(first.stdout)!);
    expect(first.stdout).toContain(`http://localhost:${port}/mcp`);
  });
});
