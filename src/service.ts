// The composition root: builds every dependency once and starts the server and its sweepers.
import { join } from "node:path";
import { systemClock, type Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import { createApp } from "./http/app.ts";
import { serve } from "./http/serve.ts";
import { DEFAULT_HTTP_TIMEOUTS } from "./http/body/timeouts.ts";
import type { Logger } from "./log.ts";
import { verifyLogin } from "./mail/imap/verify.ts";
import { cursorKeyOf } from "./mail/read/cursor-seal.ts";
import { lazyEndpoint } from "./mcp/transport/lazy-endpoint.ts";
import { accountUnsealer, McpRuntime, startMcpSweeper } from "./mcp/runtime.ts";
import { sweepSendCaps } from "./mcp/limits/send-caps.ts";
import { ClientRegistry } from "./oauth/protocol/clients.ts";
import { clientDocumentsFor } from "./oauth/protocol/documents/documents.ts";
import { purgeExpired, startPurgeSchedule } from "./oauth/limits/purge.ts";
import { CLIENT_IDLE_MS } from "./oauth/protocol/registration.ts";
import { startRevocationPoller } from "./oauth/lifecycle/revocation-poller.ts";
import { TokenEvents } from "./oauth/lifecycle/token-events.ts";
import { DB_FILE } from "./store/data-dir.ts";
import { databaseLabel } from "./store/db.ts";
import { openStore } from "./store/store.ts";
import { OAuthProviders } from "./mail/providers/oauth/registry.ts";
import { SignInRenewal, signInRenewAt } from "./oauth/upstream/renewal.ts";

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

export async function startService(config: Config, log: Logger, clock: Clock = systemClock, options: ServiceOptions = {}): Promise<Service> {
  const store = await openStore({
    databaseUrl: config.databaseUrl, sqlitePath: join(config.dataDir, DB_FILE), masterKey: config.secretKey, clock,
    clientIdleMs: CLIENT_IDLE_MS, warn: (m) => log.warn(m),
  });
  const clients = new ClientRegistry(config, store.clients, clientDocumentsFor(config, clock));
  const events = new TokenEvents();
  // Revocations made elsewhere (mailbox-mcp revoke, another instance) end this process's sessions too.
  const poller = await startRevocationPoller(store.revocations, events, log, options.revocationPollMs);
  // Sign-ins at OAuth mail providers renew their access tokens through the credential cache (docs/design.md §5).
  const providers = new OAuthProviders(config.oauth);
  const renewal = new SignInRenewal(store.renewals, providers, clock, log);
  const credentials = { renew: renewal.renew, renewAt: signInRenewAt };
  const imap = config.imapMaxConnections === null ? {} : { maxConnections: config.imapMaxConnections };
  const runtime = new McpRuntime(store.sessions, accountUnsealer(store.grants), clock, log, { mail: { credentials, imap }, answers: store.sessionAnswers });
  // Every revocation this process hears of (its own routes, the poller) ends what the token holds here.
  events.onRevoked((tokenId) => runtime.revoke(tokenId));
  const stopMcp = startMcpSweeper(runtime);
  // Built with the first /mcp request, like the endpoint: the send gate's codecs are the SDK's.
  const sending = async () => (await import("./mcp/send-gate/sending.ts")).buildSending(store, config.secretKey, config.sendLimits, clock);
  const mcp = lazyEndpoint({
    runtime, activity: store.activity, log, version: config.version, clientId: config.clientId, sending, signInProviders: providers.info(), baseUrl: config.baseUrl,
    cursorKey: cursorKeyOf(config.secretKey),
  });
  const timeouts = DEFAULT_HTTP_TIMEOUTS;
  const app = createApp({ config, store, clients, clock, log, events, verifyLogin, mcp, timeouts, providers });
  let server;
  try {
    server = serve(app, { hostname: config.host, port: config.port, log, idleSeconds: timeouts.idleSeconds });
  } catch (err) {
    await poller.stop();
    await stopMcp();
    await store.close();
    throw err;
  }

  // The one clean-up of expired rows and rate-limit events (src/oauth/limits/purge.ts): no route purges.
  const stopPurge = await startPurgeSchedule(async () => {
    await purgeExpired(store);
    await sweepSendCaps(store.limits);
  }, log);
  releaseStartupMemory();

  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`,
    port: server.port ?? config.port,
    imapMaxConnections: runtime.mail.imap.options.maxConnections,
    async stop() {
      await stopPurge();
      await poller.stop();
      await stopMcp();
      await server.stop(true);
      await store.close();
    },
  };
}
