// The composition root: builds every dependency once and starts the server and its sweepers.
import { join } from "node:path";
import { systemClock, type Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import { createApp } from "./http/app.ts";
import { serve } from "./http/serve.ts";
import { DEFAULT_HTTP_TIMEOUTS } from "./http/timeouts.ts";
import type { Logger } from "./log.ts";
import { createMcpRuntime, startMcpSweeper } from "./mcp/runtime.ts";
import { TokenEvents } from "./oauth/token-events.ts";
import { DB_FILE } from "./store/data-dir.ts";
import { databaseLabel } from "./store/db.ts";
import { openStore } from "./store/store.ts";

const PURGE_EVERY_MS = 60_000;

export interface Service {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Where the store is, for the start-up log: never the URL's user or password. */
export function storeLabel(config: Config): string {
  if (!config.databaseUrl) return `sqlite ${join(config.dataDir, DB_FILE)}`;
  return `postgres ${databaseLabel(config.databaseUrl)}`;
}

export async function startService(config: Config, log: Logger, clock: Clock = systemClock): Promise<Service> {
  const store = await openStore({
    databaseUrl: config.databaseUrl, sqlitePath: join(config.dataDir, DB_FILE), masterKey: config.secretKey, clock,
    warn: (m) => log.warn(m),
  });
  const events = new TokenEvents();
  const runtime = createMcpRuntime(clock, log);
  const stopMcp = startMcpSweeper(runtime, log);
  const timeouts = DEFAULT_HTTP_TIMEOUTS;
  const app = createApp({ config, store, clock, log, events, ...runtime, timeouts });
  let server;
  try {
    server = serve(app, { hostname: config.host, port: config.port, log, idleSeconds: timeouts.idleSeconds });
  } catch (err) {
    await stopMcp();
    await store.close();
    throw err;
  }

  const purge = async () => {
    try {
      await store.purgeExpired();
    } catch (err) {
      log.error("purge failed", { error: (err as Error).message });
    }
  };
  await purge();
  const timer = setInterval(purge, PURGE_EVERY_MS);
  timer.unref();

  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`,
    port: server.port ?? config.port,
    async stop() {
      clearInterval(timer);
      await stopMcp();
      await server.stop(true);
      await store.close();
    },
  };
}
