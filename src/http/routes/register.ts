// POST /oauth/register (RFC 7591 §3), only with MAILBOX_MCP_OPEN_REGISTRATION: otherwise this plugin adds
// nothing and the path is the ordinary 404.
import { Elysia, t } from "elysia";
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import type { ClientRegistry } from "../../oauth/protocol/clients.ts";
import type { Limiters } from "../../oauth/rate-limits/rate-limit.ts";
import { RegistrationError, registerClient } from "../../oauth/protocol/registration.ts";
import { clientAddress } from "../client-address.ts";
import { limitedBody, mediaType } from "../body/form.ts";
import { jsonNoStore } from "../responses.ts";

/** What /oauth/register needs; src/http/app.ts builds it from the app's dependencies. */
export interface RegisterRouteOptions {
  config: Pick<Config, "openRegistration" | "trustProxy">;
  clients: ClientRegistry;
  /** The registration limit, from the table (src/oauth/rate-limits/table.ts). */
  limits: Pick<Limiters, "register">;
  clock: Clock;
  /** How long a form body may take to arrive (HttpTimeouts.formBodyMs). */
  formBodyMs: number;
}

export function registerRoutes(deps: RegisterRouteOptions) {
  if (!deps.config.openRegistration) return new Elysia({ name: "register-off" });
  const { clients, clock, config, limits } = deps;
  return new Elysia({ name: "register" })
    .post("/oauth/register", async ({ body, request, server }) => {
      // RFC 7591 §3.1: the client metadata is a JSON document.
      if (mediaType(request) !== "application/json") {
        throw new RegistrationError("invalid_client_metadata", "send the client metadata as application/json");
      }
      const outcome = await registerClient({ clients, clock, limits }, body, clientAddress(request, server, config.trustProxy));
      // It carries a client secret (sometimes): never cached, like a token response (RFC 6749 §5.1).
      if (outcome.kind === "created") return jsonNoStore(201, outcome.body);
      const error = { error: "temporarily_unavailable", error_description: outcome.description };
      return jsonNoStore(outcome.status, error, { "retry-after": String(outcome.retryAfter) });
    }, { body: t.Unknown(), parse: limitedBody(deps.formBodyMs) });
}
