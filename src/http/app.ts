// Wires the plugins into one Elysia app. Dependencies come in; nothing here reads the environment.
import { Elysia } from "elysia";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { McpAnswering } from "../mcp/transport/endpoint.ts";
import type { ClientRegistry } from "../oauth/protocol/clients.ts";
import type { ConnectDeps } from "../oauth/setup/connect.ts";
import type { SignInStartDeps } from "../oauth/provider-sign-in/start.ts";
import { storeLimiters } from "../oauth/rate-limits/rate-limit.ts";
import type { TokenEvents } from "../oauth/lifecycle/token-events.ts";
import type { Store } from "../store/store.ts";
import { discoveryRoutes } from "./routes/discovery.ts";
import { frontDoorRoutes } from "./routes/front-door.ts";
import { mapError } from "./plugins/errors.ts";
import { healthRoutes } from "./routes/health.ts";
import { iconRoutes } from "./routes/icons.ts";
import { mcpRoutes } from "./routes/mcp.ts";
import { oauthRoutes } from "./routes/oauth.ts";
import { registerRoutes } from "./routes/register.ts";
import { corsPolicy, securityHeaders } from "./plugins/security.ts";
import { setupRoutes } from "./routes/setup.ts";
import { accountRoutes } from "./routes/account.ts";
import type { CapsUsed } from "../oauth/account/page-data.ts";
import { providerSignInRoutes } from "./routes/provider-sign-in.ts";
import { timeoutsOf, type HttpTimeouts } from "./body/timeouts.ts";

export interface AppDeps {
  config: Config;
  /** Grants, pending authorizations, registrations, activity, rate-limit events: shared by every instance on the same store. */
  store: Store;
  /** The configured client and, with open registration, the registered ones (src/oauth/protocol/clients.ts). */
  clients: ClientRegistry;
  clock: Clock;
  log: Logger;
  events: TokenEvents;
  /** Live IMAP login check used by /oauth/connect: src/mail/imap/verify.ts from src/composition.ts; tests may override it. */
  verifyLogin: ConnectDeps["verify"];
  /** Answers authenticated /mcp requests (src/mcp/transport/endpoint.ts); built lazily (src/mcp/transport/lazy-endpoint.ts); its runtime is built by the composition root (src/composition.ts) and swept by src/service.ts. */
  mcp: McpAnswering;
  /** The OAuth mail providers of the configuration (docs/design.md §5): the form offers them, the callback finishes their sign-ins. */
  providers: SignInStartDeps["providers"];
  /** The INBOX notice of a new grant (src/mail/write/grant-notice.ts); absent when MAILBOX_MCP_NOTIFY_GRANTS is off. */
  notifyGrant?: ConnectDeps["notify"];
  /** Sends of a grant against its caps, for the owner's page (src/sending/caps.ts, from src/composition.ts). */
  caps: CapsUsed;
  /** Defaults to DEFAULT_HTTP_TIMEOUTS; give serve() the same idleSeconds. */
  timeouts?: HttpTimeouts;
}

/** Each route gets what it needs of `deps` (its options type, in its own file), nothing more. */
export function createApp(deps: AppDeps) {
  const { config, store, clients, clock, log, events, providers } = deps;
  const timeouts = timeoutsOf(deps);
  const formBodyMs = timeouts.formBodyMs;
  // Every rate limit from the one table (src/oauth/rate-limits/table.ts), counted in the store.
  const limits = storeLimiters(store.limits);
  // One count of live mail-server logins for both doors that log in (the form, a provider's callback):
  // MAX_INFLIGHT_LOGINS bounds this process's sockets, not each route's (src/oauth/setup/connect.ts).
  const liveLogins: ConnectDeps["inflight"] = { count: 0 };
  const login = { verifyLogin: deps.verifyLogin, liveLogins, notifyGrant: deps.notifyGrant };
  return new Elysia({ name: "mailbox-mcp" })
    .use(securityHeaders())
    .use(corsPolicy(config))
    .onError(({ code, error, path }) => mapError(code, error, log, path))
    .use(healthRoutes(config.version))
    .use(iconRoutes())
    .use(frontDoorRoutes(config, providers.list().map((p) => p.label)))
    .use(discoveryRoutes(config.baseUrl, config))
    .use(setupRoutes({ config, clients, store, providers, limits, clock, log, events, ...login, formBodyMs }))
    .use(providerSignInRoutes({ config, clients, store, providers, limits, clock, log, events, ...login }))
    .use(accountRoutes({ config, store, providers, limits, clock, log, events, ...login, caps: deps.caps, formBodyMs }))
    .use(oauthRoutes({ config, clients, store, limits, clock, events, formBodyMs }))
    .use(registerRoutes({ config, clients, limits, clock, formBodyMs }))
    .use(mcpRoutes({ config, store, clock, log, mcp: deps.mcp, timeouts }));
}

export type App = ReturnType<typeof createApp>;
