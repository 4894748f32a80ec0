// Wires the plugins into one Elysia app. Dependencies come in; nothing here reads the environment.
import { Elysia } from "elysia";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { McpEndpoint } from "../mcp/transport/endpoint.ts";
import type { VerifyLogin } from "../mail/imap/verify.ts";
import type { ClientRegistry } from "../oauth/clients.ts";
import type { TokenEvents } from "../oauth/token-events.ts";
import type { Store } from "../store/store.ts";
import { discoveryRoutes } from "./discovery.ts";
import { frontDoorRoutes } from "./front-door.ts";
import { mapError } from "./errors.ts";
import { healthRoutes } from "./health.ts";
import { mcpRoutes } from "./mcp-route.ts";
import { oauthRoutes } from "./oauth-routes.ts";
import { registerRoutes } from "./register-route.ts";
import { corsPolicy, securityHeaders } from "./security.ts";
import { setupRoutes } from "./setup-routes.ts";
import type { HttpTimeouts } from "./timeouts.ts";

export interface AppDeps {
  config: Config;
  /** Grants, pending authorizations, registrations, activity, rate-limit events: shared by every instance on the same store. */
  store: Store;
  /** The configured client and, with open registration, the registered ones (src/oauth/clients.ts). */
  clients: ClientRegistry;
  clock: Clock;
  log: Logger;
  events: TokenEvents;
  /** Live IMAP login check used by /oauth/connect; defaults to src/mail/imap/verify.ts (tests may inject). */
  verifyLogin?: VerifyLogin;
  /** Answers authenticated /mcp requests (src/mcp/transport/endpoint.ts); its runtime is built and swept by the composition root. */
  mcp: McpEndpoint;
  /** Defaults to DEFAULT_HTTP_TIMEOUTS; give serve() the same idleSeconds. */
  timeouts?: HttpTimeouts;
}

export function createApp(deps: AppDeps) {
  const { config, log } = deps;
  return new Elysia({ name: "mailbox-mcp" })
    .use(securityHeaders())
    .use(corsPolicy(config))
    .onError(({ code, error, path }) => mapError(code, error, log, path))
    .use(healthRoutes(config.version))
    .use(frontDoorRoutes(config))
    .use(discoveryRoutes(config.baseUrl, config.openRegistration))
    .use(setupRoutes(deps))
    .use(oauthRoutes(deps))
    .use(registerRoutes(deps))
    .use(mcpRoutes(deps));
}

export type App = ReturnType<typeof createApp>;
