// The CLI as a user runs it: a real process, a real port, an empty data dir.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { invocation } from "../src/cli.ts";
import { until } from "./support/until.ts";

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

describe("invocation: the command a printed hint should name", () => {
  const exe = "/opt/mm/mailbox-mcp";
  test("the executable: its name when on PATH, else its path", () => {
    expect(invocation({}, "/$bunfs/root/mailbox-mcp", exe, "/opt/mm")).toBe("./mailbox-mcp");
    expect(invocation({}, "/$bunfs/root/mailbox-mcp", exe, "/home/me")).toBe(exe);
    const onPath = Bun.which("bun")!;
    expect(invocation({}, "/$bunfs/root/bun", onPath, "/")).toBe("bun");
  });
  test("from source: bun run start, or bun and the file", () => {
    expect(invocation({ npm_lifecycle_event: "start" }, "/src/mm/src/main.ts", "/usr/bin/bun", "/src/mm")).toBe("bun run start");
    expect(invocation({}, "/src/mm/src/main.ts", "/usr/bin/bun", "/src/mm")).toBe("bun src/main.ts");
  });
});

describe("mailbox-mcp CLI", () => {
  test("--help and --version", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("mailbox-mcp client");
    expect(help.stdout).toContain("MAILBOX_MCP_BASE_URL");
    expect((await cli(["--version"])).stdout.trim()).toMatch(new RegExp(`^${pkg.version.replaceAll(".", "\\.")} \\(commit [0-9a-f]{12}(-dirty)?\\)$`));
  });

  test("a bad value stops start-up with one line naming the key", async () => {
    const r = await cli([], { MAILBOX_MCP_PORT: "0x50", MAILBOX_MCP_DATA_DIR: dataDir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("MAILBOX_MCP_PORT");
  });

  test("open registration without MAILBOX_MCP_ALLOWED_MAILBOXES: serve refuses to start and says how to set it; the owner's verbs still run", async () => {
    const fresh = join(mkdtempSync(join(tmpdir(), "cli-")), "data");
    const r = await cli(["--open-registration", "--port", String(freePort())], { MAILBOX_MCP_DATA_DIR: fresh });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("configuration error: MAILBOX_MCP_ALLOWED_MAILBOXES: must be set when MAILBOX_MCP_OPEN_REGISTRATION is on");
    expect(r.stderr).toContain("MAILBOX_MCP_ALLOWED_MAILBOXES=you@example.com,@example.org,mail.example.net");
    expect(r.stderr).toContain("MAILBOX_MCP_ALLOWED_MAILBOXES=* to let anyone connect");
    const client = await cli(["client", "--open-registration"], { MAILBOX_MCP_DATA_DIR: fresh });
    expect(client.code).toBe(0);
    expect(client.stdout).toContain("Mailboxes allowed : not set");
  });

  test("config: the settings in effect with their source, secrets masked; a bad file value stops it naming file and key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-cfg-"));
    const secret = "never-printed-".repeat(3);
    writeFileSync(join(dir, "config.toml"), `send_limits = "5/h"\nclient_secret = "${secret}"\n`, { mode: 0o600 });
    const r = await cli(["config", "--port", "9999"], { MAILBOX_MCP_DATA_DIR: dir, MAILBOX_MCP_HOST: "0.0.0.0" });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(secret);
    expect(r.stdout).toContain("\nport = 9999  # flag\n");
    expect(r.stdout).toContain(`host = "0.0.0.0"  # env`);
    expect(r.stdout).toContain(`send_limits = "5/h"  # file`);
    expect(r.stdout).toContain(`client_secret = "********"  # file`);
    writeFileSync(join(dir, "config.toml"), `send_limits = "5/m"\n`);
    const bad = await cli(["config"], { MAILBOX_MCP_DATA_DIR: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(`mailbox-mcp: configuration error: ${join(dir, "config.toml")}: send_limits: "5/m" is not a count per hour or per day, e.g. 30/h,200/d`);
  });

  test("healthcheck says why it fails: an error status, or something that is not mailbox-mcp", async () => {
    const other = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("down", { status: 503 }) });
    try {
      const r = await cli(["healthcheck", "--port", String(other.port)]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`mailbox-mcp healthcheck: http://127.0.0.1:${other.port}/health: answered HTTP 503`);
    } finally {
      other.stop(true);
    }
    const html = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("<html>", { headers: { "content-type": "text/html" } }) });
    try {
      expect((await cli(["healthcheck", "--port", String(html.port)])).stderr).toContain("is this a mailbox-mcp server?");
    } finally {
      html.stop(true);
    }
  });

  test("serve, healthcheck, and a restart that keeps the client id", async () => {
    const port = String(freePort());
    const env = { MAILBOX_MCP_DATA_DIR: dataDir, MAILBOX_MCP_PORT: port };
    const down = await cli(["healthcheck"], env);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`http://127.0.0.1:${port}/health: connection refused`);
    // As README's quick start runs it: `bun run start` in the checkout, here with flags.
    const server = Bun.spawn(["bun", "run", "start", "--data-dir", dataDir], {
      cwd: join(import.meta.dir, ".."), env: { PATH: process.env.PATH!, MAILBOX_MCP_PORT: port }, stdout: "ignore", stderr: "pipe",
    });
    children.push(server);
    await until(async () => {
      if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) before answering /health`);
      return fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    }, { what: "the started server to answer /health", timeoutMs: 15_000 });
    expect((await cli(["healthcheck"], env)).code).toBe(0);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
    const first = await cli(["client"], env);
    server.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    // The start log names the command that prints the secret as this person can run it.
    expect(await new Response(server.stderr).text()).toContain(`client secret: run "bun run start client --data-dir ${dataDir}"`);
    const second = await cli(["client"], env);
    const id = (s: string) => /Client ID\s+: (\S+)/.exec(s)?.[1];
    expect(id(first.stdout)).toMatch(/^mailbox-mcp-[0-9a-f]{16}$/);
    expect(id(second.stdout)).toBe(id(first.stdout)!);
    expect(first.stdout).toContain(`http://localhost:${port}/mcp`);
  });
});
