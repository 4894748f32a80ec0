// Builds the real app on an in-memory store with a manual clock, for app.handle() tests
// (src/store/store.ts memoryStore: usable at once, its migration runs first).
import { manualClock, type Clock } from "../../src/clock.ts";
import type { Config } from "../../src/config.ts";
import { createApp, type AppDeps } from "../../src/http/app.ts";
import { memoryLogger } from "../../src/log.ts";
import { memoryStore, type Store } from "../../src/store/store.ts";
import { TokenEvents } from "../../src/oauth/lifecycle/token-events.ts";
import { ClientRegistry } from "../../src/oauth/protocol/clients.ts";
import { clientDocumentsFor, type DocumentOptions } from "../../src/oauth/protocol/documents/documents.ts";
import type { PoolOptions } from "../../src/mail/imap/pool.ts";
import { McpEndpoint } from "../../src/mcp/transport/endpoint.ts";
import { accountUnsealer, McpRuntime, type McpLimits } from "../../src/mcp/runtime.ts";
import { verifyLogin } from "../../src/mail/imap/verify.ts";
import { buildSending } from "../../src/mcp/send-gate/sending.ts";
import { OAuthProviders } from "../../src/mail/providers/oauth/registry.ts";
import { SignInRenewal, signInRenewAt } from "../../src/oauth/upstream/renewal.ts";
import { cursorKeyOf } from "../../src/mail/read/cursor-seal.ts";

export { TEST_CLIENT_ID, TEST_CLIENT_SECRET, testConfig } from "./config.ts";
import { testConfig } from "./config.ts";

/** Builds the stores over the test's key and clock; `storesOver(db, …)` puts them on a file or on Postgres. */
export type StoreFactory = (masterKey: Uint8Array, clock: Clock) => Store;

/**
 * The composition src/service.ts makes, on a test store and a manual clock: `makeStore`: another store
 * to build on (a file, Postgres); by default a fresh in-memory one. The runtime's parts are also
 * returned by name (imap, smtp, sessions, calls, sendBudget) for tests that look inside.
 */
export function testDeps(overrides: Partial<Config> = {}, limits: McpLimits = {}, makeStore: StoreFactory = memoryStore, pool: Partial<PoolOptions> = {},
  documents: Pick<DocumentOptions, "resolve" | "timeoutMs"> = {}) {
  const config = testConfig(overrides);
  const clock = manualClock(Date.now());
  const log = memoryLogger();
  const store = makeStore(config.secretKey, clock);
  const { db, grants, pending, activity } = store;
  const clients = new ClientRegistry(config, store.clients, clientDocumentsFor(config, clock, documents));
  const events = new TokenEvents();
  const providers = new OAuthProviders(config.oauth);
  const renewal = new SignInRenewal(store.renewals, providers, clock, log);
  const credentials = { renew: renewal.renew, renewAt: signInRenewAt };
  const runtime = new McpRuntime(store.sessions, accountUnsealer(grants), clock, log, { limits, mail: { imap: pool, credentials }, answers: store.sessionAnswers });
  events.onRevoked((tokenId) => runtime.revoke(tokenId));
  const sending = buildSending(store, config.secretKey, config.sendLimits, clock);
  const mcp = new McpEndpoint({ runtime, activity, log, version: config.version, clientId: config.clientId, sending, signInProviders: providers.info(), baseUrl: config.baseUrl,
    cursorKey: cursorKeyOf(config.secretKey) });
  const { imap, smtp } = runtime.mail;
  const { sessions, calls, sendBudget } = runtime;
  return {
    config, clock, log, store, db, grants, pending, clients, activity, events, mcp, runtime, imap, smtp, sessions, calls, sendBudget, sending, verifyLogin, providers,
  } satisfies AppDeps & Record<string, unknown>;
}

export function testApp(overrides: Partial<Config> = {}, makeStore?: StoreFactory) {
  const deps = testDeps(overrides, {}, makeStore);
  return { ...deps, app: createApp(deps) };
}
