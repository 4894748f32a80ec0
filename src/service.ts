// The composition root: builds every dependency once and starts the server and its sweepers.
import { join } from "node:path";
import { systemClock, type Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import { createApp } from "./http/app.ts";
import { serve } from "./http/serve.ts";
import { DEFAULT_HTTP_TIMEOUTS } from "./http/timeouts.ts";
import type { Logger } from "./log.ts";
import { createMcpRuntime, startMcpSweeper } from "./mcp/runtime.ts";
import { ClientRegistry } from "./oauth/clients.ts";
import { CLIENT_IDLE_MS } from "./oauth/registration.ts";
import { startRevocationPoller } from "./oauth/revocation-poller.ts";
import { TokenEvents } from "./oauth/token-events.ts";
import { ClientStore } from "./store/clients.ts";
import { DB_FILE } from "./store/data-dir.ts";
import { openDatabase } from "./store/db.ts";
import { ActivityLog } from "./store/activity.ts";
import { GrantStore } from "./store/grants.ts";
import { Revocations } from "./store/revocations.ts";
import { SessionRows } from "./store/mcp-sessions.ts";

const PURGE_EVERY_MS = 60_000;

export interface Service {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** How often the store's revocation signal is polled (src/oauth/revocation-poller.ts); tests shorten it. */
  revocationPollMs?: number;
}

export function startService(config: Config, log: Logger, clock: Clock = systemClock, options: ServiceOptions = {}): Service {
  const db = openDatabase(join(config.dataDir, DB_FILE));
  // MCP session rows are written on every call: their own connection, without a sync per commit.
  const sessionDb = openDatabase(join(config.dataDir, DB_FILE), { synchronous: "NORMAL" });
  const grants = new GrantStore(db, config.secretKey, clock);
  const clients = new ClientRegistry(config, new ClientStore(db, clock, CLIENT_IDLE_MS));
  const events = new TokenEvents();
  // Revocations made elsewhere (mailbox-mcp revoke, another instance) end this process's sessions too.
  const poller = startRevocationPoller(new Revocations(db), events, log, options.revocationPollMs);
  const runtime = createMcpRuntime(new SessionRows(sessionDb), clock, log);
  const stopMcp = startMcpSweeper(runtime, log);
  const activity = new ActivityLog(db, config.secretKey, clock);
  const timeouts = DEFAULT_HTTP_TIMEOUTS;
  const app = createApp({ config, grants, clients, activity, clock, log, events, ...runtime, timeouts });
  const server = serve(app, { hostname: config.host, port: config.port, log, idleSeconds: timeouts.idleSeconds });

  grants.purgeExpired();
  clients.store.purgeExpired();
  const purge = setInterval(() => {
    try {
      grants.purgeExpired();
      clients.store.purgeExpired();
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
      poller.stop();
      await stopMcp();
      await server.stop(true);
      sessionDb.close();
      db.close();
    },
  };
}
