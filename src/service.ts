// The composition root: builds every dependency once and starts the server and its sweepers.
import { join } from "node:path";
import { systemClock, type Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import { createApp } from "./http/app.ts";
import { serve } from "./http/serve.ts";
import type { Logger } from "./log.ts";
import { createMcpRuntime, startMcpSweeper } from "./mcp/runtime.ts";
import { TokenEvents } from "./oauth/token-events.ts";
import { DB_FILE } from "./store/data-dir.ts";
import { openDatabase } from "./store/db.ts";
import { GrantStore } from "./store/grants.ts";
import { SessionRows } from "./store/mcp-sessions.ts";

const PURGE_EVERY_MS = 60_000;

export interface Service {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export function startService(config: Config, log: Logger, clock: Clock = systemClock): Service {
  const db = openDatabase(join(config.dataDir, DB_FILE));
  // MCP session rows are written on every call: their own connection, without a sync per commit.
  const sessionDb = openDatabase(join(config.dataDir, DB_FILE), { synchronous: "NORMAL" });
  const grants = new GrantStore(db, config.secretKey, clock);
  const events = new TokenEvents();
  const runtime = createMcpRuntime(new SessionRows(sessionDb), clock, log);
  const stopMcp = startMcpSweeper(runtime, log);
  const app = createApp({ config, grants, clock, log, events, ...runtime });
  const server = serve(app, { hostname: config.host, port: config.port, log });

  grants.purgeExpired();
  const purge = setInterval(() => {
    try {
      grants.purgeExpired();
    } catch (err) {
      log.error("purge failed", { error: (err as Error).message });
    }
  }, PURGE_EVERY_MS);
  purge.unref();

  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`,
    port: server.port ?? config.port,
    async stop() {
      clearInterval(purge);
      await stopMcp();
      await server.stop(true);
      sessionDb.close();
      db.close();
    },
  };
}
