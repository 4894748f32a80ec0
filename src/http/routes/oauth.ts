// POST /oauth/token (RFC 6749 §4.1.3, client_secret_post or _basic) and POST /oauth/revoke (RFC 7009).
import { Elysia, t } from "elysia";
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import type { ClientRegistry } from "../../oauth/protocol/clients.ts";
import { InvalidRequestError } from "../../oauth/protocol/errors.ts";
import { clientKey, type Limiters } from "../../oauth/rate-limits/rate-limit.ts";
import { exchangeCodeLimited } from "../../oauth/protocol/token-exchange.ts";
import type { TokenEvents } from "../../oauth/lifecycle/token-events.ts";
import type { Store } from "../../store/store.ts";
import { clientAddress } from "../client-address.ts";
import { limitedBody, mediaType } from "../body/form.ts";
import { noStore } from "../responses.ts";

/** What /oauth/token and /oauth/revoke need; src/http/app.ts builds it from the app's dependencies. */
export interface OAuthRouteOptions {
  config: Pick<Config, "baseUrl" | "clientId" | "trustProxy">;
  clients: ClientRegistry;
  store: Pick<Store, "grants">;
  /** The token endpoint's limit, from the table (src/oauth/rate-limits/table.ts). */
  limits: Pick<Limiters, "token-client-auth">;
  clock: Clock;
  events: TokenEvents;
  /** How long a form body may take to arrive (HttpTimeouts.formBodyMs). */
  formBodyMs: number;
}

const optional = t.Optional(t.String());
/** Optional strings only, so the OAuth checks (not a schema error) decide which RFC 6749 error is sent. */
const TokenBody = t.Object({
  grant_type: optional, code: optional, client_id: optional, client_secret: optional,
  code_verifier: optional, redirect_uri: optional, resource: optional,
});
/** Any JSON or form body is answered with 200 (docs/design.md §3); only a string `token` is looked up. */
const RevokeBody = t.Unknown();

function tokenOf(body: unknown): string | null {
  const token = body && typeof body === "object" ? (body as Record<string, unknown>).token : undefined;
  return typeof token === "string" && token ? token : null;
}

export function oauthRoutes(deps: OAuthRouteOptions) {
  const parse = limitedBody(deps.formBodyMs);
  const { grants } = deps.store;
  return new Elysia({ name: "oauth" })
    // RFC 6749 §5.1: token responses and their errors must not be cached; the revocation answer neither.
    .use(noStore(["/oauth/token", "/oauth/revoke"]))
    .post("/oauth/token", async ({ body, request, server }) => {
      // RFC 6749 §4.1.3: the request is application/x-www-form-urlencoded.
      if (mediaType(request) !== "application/x-www-form-urlencoded") {
        throw new InvalidRequestError("the token request must be application/x-www-form-urlencoded");
      }
      const key = clientKey(clientAddress(request, server, deps.config.trustProxy));
      return exchangeCodeLimited({ ...deps, grants }, body, key, request.headers.get("authorization"));
    }, { body: TokenBody, parse })
    .post("/oauth/revoke", async ({ body, request }) => {
      // RFC 7009 §2.1 uses form encoding; the contract uses JSON (docs/contract.md §8). Both are accepted, nothing else.
      const type = mediaType(request);
      if (type !== "application/json" && type !== "application/x-www-form-urlencoded") {
        throw new InvalidRequestError("send the token as JSON {\"token\": ...} or form-encoded token=...");
      }
      // RFC 7009 §2.2: 200 whether or not the token existed, so existence cannot be probed.
      const token = tokenOf(body);
      const tokenId = token ? await grants.revokeToken(token) : null;
      if (tokenId) await deps.events.emitRevoked(tokenId);
      return { revoked: true };
    }, { body: RevokeBody, parse });
}
