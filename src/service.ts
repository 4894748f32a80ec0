// The running service: opens the store, builds the graph once (./composition.ts), serves it and starts its timers.
import { join } from "node:path";
import { systemClock, type Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import { buildService, type BuiltService } from "./composition.ts";
import { serve } from "./http/serve.ts";
import type { Logger } from "./log.ts";
import { startMcpSweeper } from "./mcp/runtime.ts";
import { sweepSendCaps } from "./sending/caps.ts";
import { purgeExpired, startPurgeSchedule } from "./oauth/rate-limits/purge.ts";
import { CLIENT_IDLE_MS } from "./oauth/protocol/registration.ts";
import { startRevocationPoller } from "./oauth/lifecycle/revocation-poller.ts";
import { DB_FILE } from "./store/data-dir.ts";
import { databaseLabel } from "./store/db.ts";
import { openStore } from "./store/store.ts";

export interface Service {
  url: string;
  port: number;
  /** The IMAP pool's cap: MAILBOX_MCP_IMAP_MAX_CONNECTIONS or what this machine can hold (src/mail/imap/pool-size.ts). */
  imapMaxConnections: number;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** How often the store's revocation signal is polled (src/oauth/lifecycle/revocation-poller.ts); tests shorten it. */
  revocationPollMs?: number;
}

/** Where the store is, for the start-up log: never the URL's user or password. */
export function storeLabel(config: Config): string {
  if (!config.databaseUrl) return `sqlite ${join(config.dataDir, DB_FILE)}`;
  return `postgres ${databaseLabel(config.databaseUrl)}`;
}

/**
 * Start-up's garbage (module parsing, migrations) collected and the freed pages handed back to the
 * system: ~3 MB of an idle server's RSS (docs/performance.md "Idle memory"). Bun.shrink is marked
 * deprecated, so it is used only while it exists.
 */
export function releaseStartupMemory(): void {
  Bun.gc(true);
  const shrink = (Bun as { shrink?: () => void }).shrink;
  if (typeof shrink === "function") shrink();
}

/** Stops what startTimers started, in the reverse order. */
export type StopTimers = () => Promise<void>;

/**
 * The service's timers over a built graph: the revocation poller (revocations made elsewhere, by
 * `mailbox-mcp revoke` or another instance, end this process's sessions too), the MCP sweeper and the
 * one purge of expired rows and rate-limit events (src/oauth/rate-limits/purge.ts: no route purges).
 * Tests that need one of them start them here, as the service does.
 */
export async function startTimers(service: Pick<BuiltService, "store" | "events" | "log" | "runtime">, options: ServiceOptions = {}): Promise<StopTimers> {
  const { store, events, log, runtime } = service;
  const poller = await startRevocationPoller(store.revocations, events, log, options.revocationPollMs);
  const stopMcp = startMcpSweeper(runtime);
  const stopPurge = await startPurgeSchedule(async () => {
    await purgeExpired(store);
    await sweepSendCaps(store.limits);
  }, log);
  return async () => {
    await stopPurge();
    await poller.stop();
    await stopMcp();
  };
}

/** Opens the store, builds the graph (./composition.ts), serves it and starts its timers. */
export async function startService(config: Config, log: Logger, clock: Clock = systemClock, options: ServiceOptions = {}): Promise<Service> {
  const store = await openStore({
    databaseUrl: config.databaseUrl, sqlitePath: join(config.dataDir, DB_FILE), masterKey: config.secretKey, clock,
    clientIdleMs: CLIENT_IDLE_MS, warn: (m) => log.warn(m),
  });
  const service = buildService(config, store, { clock, log });
  let server;
  try {
    server = serve(service.app, { hostname: config.host, port: config.port, log, idleSeconds: service.timeouts.idleSeconds });
  } catch (err) {
    await service.runtime.close();
    await store.close();
    throw err;
  }
  const stopTimers = await startTimers(service, options);
  releaseStartupMemory();

  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`,
    port: server.port ?? config.port,
    imapMaxConnections: service.runtime.mail.imap.options.maxConnections,
    async stop() {
      await stopTimers();
      await server.stop(true);
      await store.close();
    },
  };
}
