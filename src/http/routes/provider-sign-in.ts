// GET /oauth/upstream/callback (docs/design.md §5): where an OAuth mail provider sends the browser back
// after the sign-in the setup form started. The use case is src/oauth/provider-sign-in/callback.ts; this file
// reads the query and the sign-in cookie and answers with the same pages as the form: the 303 to the
// MCP client, the form again with a message, or an error page. The cookie is cleared on every answer.
import { Elysia } from "elysia";
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import type { ClientRegistry } from "../../oauth/protocol/clients.ts";
import type { Limiters } from "../../oauth/rate-limits/rate-limit.ts";
import type { TokenEvents } from "../../oauth/lifecycle/token-events.ts";
import type { ConnectDeps } from "../../oauth/setup/connect.ts";
import { finishSignIn, type CallbackQuery, type SignInCallbackDeps } from "../../oauth/provider-sign-in/callback.ts";
import { CALLBACK_PATH, type SignInStartDeps } from "../../oauth/provider-sign-in/start.ts";
import type { Store } from "../../store/store.ts";
import { clientAddress } from "../client-address.ts";
import { noStore } from "../responses.ts";
import { connectResponse, errorPage, type SetupPageContext } from "./setup.ts";
import { clearSignInCookie, signInCookie } from "./sign-in-cookie.ts";
import { signInContext } from "./account-answers.ts";
import { accountAnswer } from "./account-callback.ts";

export interface ProviderSignInRouteOptions {
  config: Pick<Config, "baseUrl" | "clientId" | "allowPrivateHosts" | "trustProxy" | "allowedMailboxes" | "secretKey">;
  clients: ClientRegistry;
  providers: SignInStartDeps["providers"];
  store: Pick<Store, "grants" | "pending" | "upstreamFlows" | "identities" | "pendingMailboxes" | "accountSessions">;
  limits: Pick<Limiters, "connect-failures" | "connect-attempts">;
  clock: Clock;
  log: Logger;
  events: TokenEvents;
  verifyLogin: ConnectDeps["verify"];
  /** Live mail-server logins on this instance, shared with the setup form (src/http/app.ts). */
  liveLogins: ConnectDeps["inflight"];
  /** The INBOX notice of a new grant, when MAILBOX_MCP_NOTIFY_GRANTS is on. */
  notifyGrant?: ConnectDeps["notify"];
}

const PARAMS = ["state", "code", "error", "error_description", "iss"] as const;

/** The callback's parameters; a repeated one makes the whole query unusable (RFC 6749 §3.1). */
function callbackQuery(url: URL): CallbackQuery | null {
  const q: CallbackQuery = {};
  for (const name of PARAMS) {
    const values = url.searchParams.getAll(name);
    if (values.length > 1) return null;
    if (values[0] !== undefined) q[name] = values[0];
  }
  return q;
}

export function providerSignInRoutes(deps: ProviderSignInRouteOptions) {
  const { config, store, providers } = deps;
  const callbackDeps: SignInCallbackDeps = {
    config, grants: store.grants, pending: store.pending, log: deps.log, limits: deps.limits, inflight: deps.liveLogins,
    verify: deps.verifyLogin, events: deps.events, notify: deps.notifyGrant, clock: deps.clock, providers, flows: store.upstreamFlows,
    identities: store.identities,
    collected: store.pendingMailboxes, account: { sessions: store.accountSessions, secretKey: config.secretKey },
  };
  const signInCtx = signInContext(new URL(config.baseUrl).origin, providers);
  const pages: SetupPageContext = { clients: deps.clients, providers, baseUrl: config.baseUrl, collected: store.pendingMailboxes };
  const done = { "set-cookie": clearSignInCookie(config.baseUrl) };
  const unknown = () => errorPage(400, "This sign-in link has expired or was already used",
    "Go back to your app and connect the mailbox again: the sign-in must be finished within 10 minutes, in the browser that started it.", done);

  return new Elysia({ name: "upstream" })
    .use(noStore([CALLBACK_PATH]))
    .get(CALLBACK_PATH, async ({ request, server }) => {
      const query = callbackQuery(new URL(request.url));
      if (!query) return unknown();
      const ip = clientAddress(request, server, config.trustProxy);
      const { outcome, fields } = await finishSignIn(callbackDeps, query, signInCookie(request), ip);
      if (outcome.kind === "unknown") return unknown();
      if (outcome.kind === "other_browser") {
        return errorPage(403, "This sign-in was started in another browser",
          "Finish connecting the mailbox in the browser where you started it, or start again from your app in this one.", done);
      }
      if (outcome.kind === "account") return accountAnswer(config, signInCtx, deps.clock, outcome.result);
      return connectResponse(pages, outcome, fields, done);
    });
}
