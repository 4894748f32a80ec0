// GET /oauth/authorize (validate, store the pending request, render the setup form) and
// POST /oauth/connect (check the mailbox login, issue the code, 303 back to the client).
import { Elysia, t } from "elysia";
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import { PENDING_TTL_MS, validateAuthorize, type AuthorizeRequest, type ValidAuthorize } from "../../oauth/protocol/authorize.ts";
import { connectMailbox, type ConnectDeps, type ConnectOutcome } from "../../oauth/setup/connect.ts";
import type { ConnectFields } from "../../oauth/setup/connect-form.ts";
import { widestAccess } from "../../oauth/setup/access.ts";
import { OAuthProblem } from "../../oauth/protocol/errors.ts";
import { admitAuthorize, admitDocumentFetch } from "../../oauth/rate-limits/authorize-limit.ts";
import type { ClientRegistry, OAuthClient } from "../../oauth/protocol/clients.ts";
import { clientKey, type Limiters } from "../../oauth/rate-limits/rate-limit.ts";
import { redirectHost, redirectOrigin } from "../../oauth/protocol/redirects.ts";
import type { TokenEvents } from "../../oauth/lifecycle/token-events.ts";
import type { Store } from "../../store/store.ts";
import type { PendingMailboxes } from "../../store/pending-mailboxes.ts";
import { addressesOf } from "../../oauth/setup/several.ts";
import { ErrorPage } from "../../views/error-page.tsx";
import { contentSecurityPolicy, newNonce } from "../../views/page.ts";
import { SetupForm, type AskingClient } from "../../views/setup-form.tsx";
import { prefersJson } from "../accept.ts";
import { clientAddress } from "../client-address.ts";
import { limitedBody } from "../body/form.ts";
import { html, jsonNoStore, noStore, seeOther } from "../responses.ts";
import { setSignInCookie } from "./sign-in-cookie.ts";
import type { SignInStartDeps } from "../../oauth/provider-sign-in/start.ts";

/** What the setup routes need; src/http/app.ts builds it from the app's dependencies. */
export interface SetupRouteOptions {
  config: Pick<Config, "baseUrl" | "clientId" | "allowPrivateHosts" | "trustProxy" | "allowedMailboxes">;
  clients: ClientRegistry;
  store: Pick<Store, "grants" | "pending" | "upstreamFlows" | "identities" | "pendingMailboxes">;
  /** OAuth mail providers configured here: on the form, and where its POST may be redirected (src/oauth/provider-sign-in/). */
  providers: SignInStartDeps["providers"];
  /** The limits of authorize and connect, from the table (src/oauth/rate-limits/table.ts). */
  limits: Pick<Limiters, "authorize" | "document-fetch" | "connect-failures" | "connect-attempts">;
  clock: Clock;
  log: Logger;
  events: TokenEvents;
  /** The live mailbox login check: src/composition.ts passes src/mail/imap/verify.ts, tests may override it. */
  verifyLogin: ConnectDeps["verify"];
  /** Live mail-server logins on this instance, shared with the sign-in callback (src/http/app.ts). */
  liveLogins: ConnectDeps["inflight"];
  /** How long a form body may take to arrive (HttpTimeouts.formBodyMs). */
  formBodyMs: number;
  /** The INBOX notice of a new grant, when MAILBOX_MCP_NOTIFY_GRANTS is on. */
  notifyGrant?: ConnectDeps["notify"];
}

const optional = t.Optional(t.String());
/** All optional strings: our own checks (connect-form.ts) decide and re-render the form. */
const ConnectBody = t.Object({
  request_id: optional, csrf_token: optional, provider: optional, email: optional, password: optional,
  username: optional, imap_host: optional, imap_port: optional, imap_security: optional,
  smtp_host: optional, smtp_port: optional, smtp_security: optional, access: optional, send: optional, upstream: optional,
  send_as: optional, signature: optional, another: optional, finish: optional,
});

function authorizeError(request: Request, err: OAuthProblem, more: Record<string, string> = {}): Response {
  const extra = { ...err.headers, ...more };
  if (prefersJson(request.headers.get("accept"))) return jsonNoStore(err.status, err.toJSON(), extra);
  const nonce = newNonce();
  const title = err.status === 429 || err.status === 503 ? "Too many sign-in attempts" : "This connection request is not valid";
  const page = ErrorPage({ nonce, title, message: err.description, code: err.error });
  return html(page, err.status, contentSecurityPolicy(nonce, "none"), extra);
}

/** 429 + Retry-After (RFC 6585 §4), never the form. */
function tooManyAuthorizes(request: Request, retryAfter: number): Response {
  const err = new OAuthProblem("temporarily_unavailable",
    `Too many sign-ins were started from your network. Wait ${retryAfter} seconds, then try again.`, 429);
  return authorizeError(request, err, { "retry-after": String(retryAfter) });
}

/** Who is asking, for the form (a client deleted since authorize is named like the configured one: by host). */
function askingOf(client: OAuthClient | null): AskingClient {
  switch (client?.kind) {
    case "registered": return { kind: "registered", name: client.name };
    case "document": return { kind: "document", name: client.name, documentHost: new URL(client.id).host };
    default: return { kind: "configured" };
  }
}

/** The form shown again after a failed connect: the client as known, without fetching its document again. */
async function asking(clients: ClientRegistry, clientId: string | null): Promise<AskingClient> {
  return askingOf(clientId ? await clients.known(clientId) : null);
}

/** What renders the setup form besides the request: who is asking and the sign-in providers. */
export interface SetupPageContext {
  clients: ClientRegistry;
  /** The mailboxes a request has verified so far ("add another mailbox"), listed on the page. */
  collected: Pick<PendingMailboxes, "list">;
  providers: SignInStartDeps["providers"];
  baseUrl: string;
}

/**
 * form-action: the client's origin (the 303 after a password login) and the sign-in providers'
 * (the 303 to their authorization endpoint): browsers apply it to both (docs/oauth.md §7).
 */
function formActionOrigins(redirectUri: string, providers: SignInStartDeps["providers"]): string | null {
  const client = redirectOrigin(redirectUri);
  return client ? [client, ...providers.authorizationOrigins()].join(" ") : null;
}

function setupPage(ctx: SetupPageContext, req: Pick<AuthorizeRequest, "redirectUri" | "scope">, who: AskingClient, ids: { requestId: string; csrfToken: string },
  values: ConnectFields, status = 200, error?: string, extra: Record<string, string> = {}, connected: string[] = []): Response {
  const nonce = newNonce();
  const { password: _never, request_id: _r, csrf_token: _c, upstream: _u, another: _a, finish: _f, ...kept } = values;
  const signIn = ctx.providers.list().map(({ id, name, label, notes }) => ({ id, name, label, notes }));
  const page = SetupForm({
    nonce, ...ids, redirectHost: redirectHost(req.redirectUri), client: who, widestAccess: widestAccess(req.scope), values: kept, error, signIn, connected,
  });
  return html(page, status, contentSecurityPolicy(nonce, formActionOrigins(req.redirectUri, ctx.providers)), extra);
}

export function errorPage(status: number, title: string, message: string, extra: Record<string, string> = {}): Response {
  const nonce = newNonce();
  return html(ErrorPage({ nonce, title, message }), status, contentSecurityPolicy(nonce, "none"), extra);
}

/** The answer to a form submission or a provider's callback: the 303 onwards, an error page, or the form again. */
export async function connectResponse(ctx: SetupPageContext, outcome: ConnectOutcome, fields: ConnectFields, extra: Record<string, string> = {}): Promise<Response> {
  switch (outcome.kind) {
    case "redirect":
      return seeOther(outcome.location, extra);
    case "sign_in":
      return seeOther(outcome.location, { "set-cookie": setSignInCookie(ctx.baseUrl, outcome.binding) });
    case "expired":
      return errorPage(400, "This connection request has expired", "The setup page is valid for 10 minutes and can be used once.", extra);
    case "forbidden":
      return errorPage(403, "This form could not be verified", "The form's security token is missing or wrong.", extra);
    case "form": {
      const ids = { requestId: fields.request_id!, csrfToken: fields.csrf_token! };
      const headers: Record<string, string> = { ...extra, ...(outcome.retryAfter ? { "retry-after": String(outcome.retryAfter) } : {}) };
      const who = await asking(ctx.clients, outcome.pending.clientId);
      const connected = addressesOf(await ctx.collected.list(ids.requestId, outcome.pending));
      return setupPage(ctx, outcome.pending, who, ids, fields, outcome.status, outcome.message, headers, connected);
    }
    case "added": {
      // 200 with the form again (same request and CSRF token), empty but for the provider (docs/design.md §3).
      const ids = { requestId: fields.request_id!, csrfToken: fields.csrf_token! };
      const who = await asking(ctx.clients, outcome.pending.clientId);
      return setupPage(ctx, outcome.pending, who, ids, { provider: fields.provider }, 200, undefined, extra, outcome.connected);
    }
  }
}

export function setupRoutes(deps: SetupRouteOptions) {
  const { config, clients, clock, log, limits } = deps;
  const { grants, pending } = deps.store;
  const authorizeLimits = { pending, limits, clock };
  const signIn = { config, providers: deps.providers, flows: deps.store.upstreamFlows };
  const connectDeps: ConnectDeps = {
    config, grants, pending, log, limits, inflight: deps.liveLogins, verify: deps.verifyLogin, events: deps.events, signIn, notify: deps.notifyGrant,
    identities: deps.store.identities,
    collected: deps.store.pendingMailboxes,
  };
  const pages: SetupPageContext = { clients, providers: deps.providers, baseUrl: config.baseUrl, collected: deps.store.pendingMailboxes };

  return new Elysia({ name: "setup" })
    // The setup pages and their errors are never cached (docs/oauth.md §7).
    .use(noStore(["/oauth/authorize", "/oauth/connect"]))
    .get("/oauth/authorize", async ({ request, server }) => {
      const key = clientKey(clientAddress(request, server, config.trustProxy));
      let req: ValidAuthorize;
      try {
        req = await validateAuthorize(new URL(request.url).searchParams, config, clients, admitDocumentFetch(limits, key));
      } catch (err) {
        if (err instanceof OAuthProblem) return authorizeError(request, err);
        throw err;
      }
      // Each authorize stores a row: bounded per client, and a full table sheds its biggest holder.
      const refused = await admitAuthorize(authorizeLimits, key);
      if (refused) return tooManyAuthorizes(request, refused.retryAfter);
      const ids = await pending.create(req, PENDING_TTL_MS, key);
      return setupPage(pages, req, askingOf(req.client), ids, {});
    })
    .post("/oauth/connect", async ({ body, request, server }) => {
      const ip = clientAddress(request, server, config.trustProxy);
      return connectResponse(pages, await connectMailbox(connectDeps, body, ip), body);
    }, { body: ConnectBody, parse: limitedBody(deps.formBodyMs) });
}
