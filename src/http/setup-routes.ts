// GET /oauth/authorize (validate, store the pending request, render the setup form) and
// POST /oauth/connect (check the mailbox login, issue the code, 303 back to the client).
import { clientAddress } from "./client-address.ts";
import { parseLimitedBody } from "./form-body.ts";
import { Elysia, t } from "elysia";
import { verifyLogin } from "../mail/verify.ts";
import { validateAuthorize, type AuthorizeRequest } from "../oauth/authorize.ts";
import { ATTEMPT_LIMIT, connectMailbox, type ConnectOutcome } from "../oauth/connect.ts";
import type { ConnectFields } from "../oauth/connect-form.ts";
import { widestAccess } from "../oauth/access.ts";
import { OAuthError } from "../oauth/errors.ts";
import { throttled } from "../oauth/purge.ts";
import { FailureLimiter } from "../oauth/rate-limit.ts";
import { allowedRedirectUris, redirectHost, redirectOrigin } from "../oauth/redirects.ts";
import { ErrorPage } from "../views/error-page.tsx";
import { contentSecurityPolicy, htmlResponse, newNonce } from "../views/page.ts";
import { SetupForm } from "../views/setup-form.tsx";
import type { AppDeps } from "./app.ts";

const PENDING_TTL_MS = 10 * 60_000; // DESIGN §3

const optional = t.Optional(t.String());
/** All optional strings: our own checks (connect-form.ts) decide and re-render the form. */
const ConnectBody = t.Object({
  request_id: optional, csrf_token: optional, provider: optional, email: optional, password: optional,
  username: optional, imap_host: optional, imap_port: optional, imap_security: optional,
  smtp_host: optional, smtp_port: optional, smtp_security: optional, access: optional,
});

/** DESIGN §3: JSON when Accept names application/json before text/html. */
export function prefersJson(accept: string | null): boolean {
  const a = (accept ?? "").toLowerCase();
  const json = a.indexOf("application/json");
  const html = a.indexOf("text/html");
  return json >= 0 && (html < 0 || json < html);
}

function authorizeError(request: Request, err: OAuthError): Response {
  if (prefersJson(request.headers.get("accept"))) {
    return new Response(JSON.stringify(err.toJSON()), {
      status: err.status,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    });
  }
  const nonce = newNonce();
  const html = ErrorPage({ nonce, title: "This connection request is not valid", message: err.description, code: err.error });
  return htmlResponse(html, err.status, contentSecurityPolicy(nonce, "none"));
}

function setupPage(req: Pick<AuthorizeRequest, "redirectUri" | "scope">, ids: { requestId: string; csrfToken: string },
  values: ConnectFields, status = 200, error?: string, extra: Record<string, string> = {}): Response {
  const nonce = newNonce();
  const { password: _never, request_id: _r, csrf_token: _c, ...kept } = values;
  const html = SetupForm({ nonce, ...ids, redirectHost: redirectHost(req.redirectUri), widestAccess: widestAccess(req.scope), values: kept, error });
  return htmlResponse(html, status, contentSecurityPolicy(nonce, redirectOrigin(req.redirectUri)), extra);
}

function errorPage(status: number, title: string, message: string): Response {
  const nonce = newNonce();
  return htmlResponse(ErrorPage({ nonce, title, message }), status, contentSecurityPolicy(nonce, "none"));
}

function connectResponse(outcome: ConnectOutcome, fields: ConnectFields): Response {
  switch (outcome.kind) {
    case "redirect": // 303, never 307: the browser must not re-send the password (RFC 9110 §15.4.4)
      return new Response(null, { status: 303, headers: { location: outcome.location, "cache-control": "no-store" } });
    case "expired":
      return errorPage(400, "This connection request has expired", "The setup page is valid for 10 minutes and can be used once.");
    case "forbidden":
      return errorPage(403, "This form could not be verified", "The form's security token is missing or wrong.");
    case "form": {
      const ids = { requestId: fields.request_id!, csrfToken: fields.csrf_token! };
      const extra: Record<string, string> = outcome.retryAfter ? { "retry-after": String(outcome.retryAfter) } : {};
      return setupPage(outcome.pending, ids, fields, outcome.status, outcome.message, extra);
    }
  }
}

/** Pending authorizations kept at once (each lives 10 minutes). */
export const MAX_PENDING = 10_000;

export function setupRoutes(deps: AppDeps) {
  const { config, grants, clock, log } = deps;
  const allowed = allowedRedirectUris(config);
  const limiter = new FailureLimiter(clock);
  const attempts = new FailureLimiter(clock, ATTEMPT_LIMIT);
  // Expired rows go at most once a minute on the requests that create them (tests drive it with
  // the clock); src/service.ts also purges on a timer so an idle server does not keep them.
  const purge = throttled(clock, 60_000, () => {
    grants.purgeExpired();
    limiter.sweep();
    attempts.sweep();
  });
  const connectDeps = { config, grants, log, limiter, attempts, inflight: { count: 0 }, verify: deps.verifyLogin ?? verifyLogin, events: deps.events };

  return new Elysia({ name: "setup" })
    .get("/oauth/authorize", ({ request }) => {
      purge();
      let req: AuthorizeRequest;
      try {
        req = validateAuthorize(new URL(request.url).searchParams, config, allowed);
      } catch (err) {
        if (err instanceof OAuthError) return authorizeError(request, err);
        throw err;
      }
      // Each authorize stores a row; a flood of them is refused rather than stored (RFC 6749 §4.1.2.1).
      if (grants.countPending() >= MAX_PENDING) {
        return authorizeError(request, new OAuthError("temporarily_unavailable", "Too many sign-ins are in progress. Try again in a few minutes.", 503));
      }
      const ids = grants.createPending(req, PENDING_TTL_MS);
      return setupPage(req, ids, {});
    })
    .post("/oauth/connect", async ({ body, request, server }) => {
      purge();
      const ip = clientAddress(request, server, config.trustProxy);
      return connectResponse(await connectMailbox(connectDeps, body, ip), body);
    }, { body: ConnectBody, parse: parseLimitedBody });
}
