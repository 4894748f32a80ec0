// The real service (src/service.ts) on a temp data dir and a free port, and the CLI as a separate
// process on the same data dir and configuration: how an owner runs `mailbox-mcp grants` next to
// a running server.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { parseSettings } from "../../src/config.ts";
import { silentLogger } from "../../src/log.ts";
import { startService, type Service, type ServiceOptions } from "../../src/service.ts";
import { prepareDataDir } from "../../src/store/data-dir.ts";
import type { Handler } from "../oauth/flow.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "./app.ts";
import { freePort } from "./ports.ts";

const ROOT = join(import.meta.dir, "..", "..");
const MAIN = join(ROOT, "src", "main.ts");

export interface LiveService {
  base: string;
  env: Record<string, string>;
  service: Service;
  /** flow.ts's helpers speak app.handle() with http://localhost URLs: this sends them to the server. */
  handler: Handler;
  /** Runs `bun src/main.ts ...args` with the server's configuration. */
  cli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }>;
  stop(): Promise<void>;
}

export async function startLiveService(options: ServiceOptions = {}): Promise<LiveService> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const env = {
    MAILBOX_MCP_DATA_DIR: join(mkdtempSync(join(tmpdir(), "live-")), "data"),
    MAILBOX_MCP_PORT: String(port), MAILBOX_MCP_BASE_URL: base,
    MAILBOX_MCP_CLIENT_ID: TEST_CLIENT_ID, MAILBOX_MCP_CLIENT_SECRET: TEST_CLIENT_SECRET,
    MAILBOX_MCP_ALLOW_PRIVATE_HOSTS: "true",
  };
  const config = prepareDataDir(parseSettings([], env), pkg.version, () => {});
  const service = await startService(config, silentLogger, undefined, options);
  return {
    base, env, service,
    handler: {
      async handle(req) {
        const url = new URL(req.url);
        return fetch(`${base}${url.pathname}${url.search}`, {
          method: req.method, headers: req.headers, redirect: "manual",
          body: req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer(),
        });
      },
    },
    async cli(args) {
      const p = Bun.spawn(["bun", MAIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH!, HOME: tmpdir(), ...env }, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      return { stdout, stderr, code };
    },
    stop: () => service.stop(),
  };
}
