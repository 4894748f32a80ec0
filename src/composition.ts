// The composition root: the one place the object graph is built (clients, token events, provider
// sign-ins and their renewal, the MCP runtime, the lazy endpoint, the app). No socket, no timer and
// no I/O here: the store comes in opened, and src/service.ts serves the app and starts the timers.
// Tests build through this same function with their overrides (test/support/app.ts), so there is no
// second copy of the wiring to drift from this one.
import { systemClock, type Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import { createApp, type AppDeps } from "./http/app.ts";
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from "./http/body/timeouts.ts";
import { silentLogger, type Logger } from "./log.ts";
import type { PoolOptions } from "./mail/imap/pool.ts";
import { verifyLogin } from "./mail/imap/verify.ts";
import { cursorKeyOf } from "./mail/read/cursor-seal.ts";
import { accountUnsealer, McpRuntime, type McpLimits } from "./mcp/runtime.ts";
import type { Sending } from "./mcp/confirm/tool-sending.ts";
import { lazyEndpoint } from "./mcp/transport/lazy-endpoint.ts";
import { SignInRenewal, signInRenewAt } from "./oauth/provider-sign-in/renewal.ts";
import { OAuthProviders } from "./oauth/provider-sign-in/registry.ts";
import { ClientRegistry } from "./oauth/protocol/clients.ts";
import { clientDocumentsFor, type DocumentOptions } from "./oauth/protocol/documents/documents.ts";
import { TokenEvents } from "./oauth/lifecycle/token-events.ts";
import type { Store } from "./store/store.ts";
import { SendCaps } from "./sending/caps.ts";
import { appendGrantNotice } from "./mail/write/grant-notice.ts";

/** What a caller may put in place of the service's own parts; every field defaults to what the service uses. */
export interface ServiceOverrides {
  clock?: Clock;
  log?: Logger;
  /** Per-token limits of the MCP runtime (src/mcp/runtime.ts): tests lower them. */
  limits?: McpLimits;
  /** The IMAP pool's options, over MAILBOX_MCP_IMAP_MAX_CONNECTIONS (src/mail/imap/pool.ts). */
  pool?: Partial<PoolOptions>;
  /** How client metadata documents are fetched (src/oauth/protocol/documents/documents.ts): tests resolve names themselves. */
  documents?: Pick<DocumentOptions, "resolve" | "timeoutMs">;
  /** The live IMAP login check of /oauth/connect (src/mail/imap/verify.ts). */
  verifyLogin?: AppDeps["verifyLogin"];
  timeouts?: HttpTimeouts;
}

/**
 * Every part of the service, built once over an opened store. The MCP endpoint is lazy (its module
 * graph and the send gate load with the first /mcp request: docs/performance.md "Idle memory").
 */
export function buildService(config: Config, store: Store, overrides: ServiceOverrides = {}) {
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? silentLogger;
  const clients = new ClientRegistry(config, store.clients, clientDocumentsFor(config, clock, overrides.documents));
  const events = new TokenEvents();
  // Sign-ins at OAuth mail providers renew their access tokens through the credential cache (docs/design.md §5).
  const providers = new OAuthProviders(config.oauth);
  const renewal = new SignInRenewal(store.renewals, providers, clock, log);
  const credentials = { renew: renewal.renew, renewAt: signInRenewAt };
  const imap = { ...(config.imapMaxConnections === null ? {} : { maxConnections: config.imapMaxConnections }), ...overrides.pool };
  const runtime = new McpRuntime(store.sessions, accountUnsealer(store.mailboxes), clock, log, {
    limits: overrides.limits, mail: { credentials, imap }, answers: store.sessionAnswers,
  });
  // Every revocation this process hears of (its own routes, the revocation poller) ends what the token holds here.
  events.onRevoked((tokenId) => runtime.revoke(tokenId));
  events.onMailboxRemoved((tokenId, position) => runtime.removeMailbox(tokenId, position));
  // Built with the first /mcp request, like the endpoint: the send gate's codecs are the SDK's, and
  // the tools are the endpoint's module graph. list_providers alone gets the provider sign-ins.
  const sending = async (): Promise<Sending> =>
    (await import("./mcp/confirm/tool-sending.ts")).buildSending(store, config.secretKey, config.sendLimits, clock, runtime.mail.smtp);
  const tools = async () => (await import("./mcp/tools/index.ts")).mcpTools({
    signIns: providers.info(), cursorKey: cursorKeyOf(config.secretKey), identities: (scope) => store.identities.forGrant(scope),
    contacts: runtime.contacts, clock,
    web: { allowPrivateHosts: config.allowPrivateHosts, version: config.version },
  });
  const mcp = lazyEndpoint({
    runtime, activity: store.activity, mailboxes: store.mailboxes, log, version: config.version, clientId: config.clientId, sending, tools, baseUrl: config.baseUrl,
  });
  // The owner's page shows each grant's sends against the same caps the send gate counts.
  const sendCaps = new SendCaps(store.limits, config.sendLimits);
  const deps = {
    caps: (grantId: string) => sendCaps.used(grantId),
    ...(config.notifyGrants ? { notifyGrant: appendGrantNotice(clock) } : {}),
    config, store, clients, clock, log, events, providers, runtime, mcp,
    verifyLogin: overrides.verifyLogin ?? verifyLogin, timeouts: overrides.timeouts ?? DEFAULT_HTTP_TIMEOUTS,
  } satisfies AppDeps & Record<string, unknown>;
  return { ...deps, app: createApp(deps) };
}

export type BuiltService = ReturnType<typeof buildService>;
