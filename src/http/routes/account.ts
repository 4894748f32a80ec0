// GET /account (the owner's page or its sign-in) and its form POSTs (docs/owner.md §7, docs/design.md §3
// "The owner's page"): sign-in, revoke, send-policy, remove-mailbox, revoke-all, identities, signature,
// dismiss-held, sign-out.
// A POST needs the session's cookie (else the sign-in page), its CSRF token (else 403) and confirm=1
// (else the page asks first); a grant that does not hold this mailbox is 404, saying nothing more.
import { Elysia, t } from "elysia";
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import { changeSendPolicy, removeMailbox, revokeAll, revokeConnection, setIdentities, type ActionResult } from "../../oauth/account/actions.ts";
import { accountData, type CapsUsed } from "../../oauth/account/page-data.ts";
import { dismissHeld } from "../../oauth/account/held.ts";
import { setSignature } from "../../oauth/account/signatures.ts";
import { accountSignIn } from "../../oauth/account/sign-in.ts";
import { startAccountSignIn } from "../../oauth/account/provider-start.ts";
import type { OAuthProviders } from "../../oauth/provider-sign-in/registry.ts";
import { sessionCsrf, sessionCsrfValid, signInFormToken, signInFormTokenValid } from "../../oauth/account/tokens.ts";
import type { TokenEvents } from "../../oauth/lifecycle/token-events.ts";
import type { ConnectDeps } from "../../oauth/setup/connect.ts";
import { clientKey, type Limiters } from "../../oauth/rate-limits/rate-limit.ts";
import type { AccountSession } from "../../store/account-sessions.ts";
import type { Store } from "../../store/store.ts";
import { clientAddress } from "../client-address.ts";
import { limitedBody } from "../body/form.ts";
import { noStore, seeOther } from "../responses.ts";
import { accountError, accountPage, confirmPage, signInContext, signInPage } from "./account-answers.ts";
import { setSignInCookie } from "./sign-in-cookie.ts";
import { accountCookie, clearAccountCookie, setAccountCookie } from "./account-cookie.ts";

export interface AccountRouteOptions {
  config: Pick<Config, "baseUrl" | "secretKey" | "allowPrivateHosts" | "allowedMailboxes" | "clientId" | "trustProxy">;
  store: Pick<Store, "accountSessions" | "ownerView" | "activity" | "identities" | "upstreamFlows" | "heldSubjects">;
  /** OAuth mail providers: a "Sign in with …" button each on the sign-in form. */
  providers: OAuthProviders;
  /**
   * The limits of /oauth/connect (a wrong password here counts there too), and authorize's: each
   * provider sign-in started here stores a flow row for 10 minutes, as an authorize stores a pending request.
   */
  limits: Pick<Limiters, "connect-failures" | "connect-attempts" | "authorize">;
  clock: Clock;
  log: Logger;
  events: TokenEvents;
  verifyLogin: ConnectDeps["verify"];
  liveLogins: ConnectDeps["inflight"];
  caps: CapsUsed;
  formBodyMs: number;
}

const optional = t.Optional(t.String());
const AccountBody = t.Object({
  csrf_token: optional, confirm: optional, grant: optional, send: optional, send_as: optional, signature: optional, address: optional, held: optional,
  provider: optional, upstream: optional, email: optional, password: optional, username: optional, imap_host: optional, imap_port: optional,
  imap_security: optional, smtp_host: optional, smtp_port: optional, smtp_security: optional,
});
type Body = typeof AccountBody.static;

const QUESTIONS: Record<string, string> = {
  "/account/revoke": "Revoke this app's access to your mailbox? It is cut off at once.",
  "/account/send-policy": "Change when this app may send in your name?",
  "/account/remove-mailbox": "Take your mailbox out of this connection? The app loses access to it at once.",
  "/account/revoke-all": "Revoke every app's access to your mailbox? They are all cut off at once.",
  "/account/identities": "Change the addresses every app sends as from this mailbox, and its signature?",
  "/account/signature": "Change this address's signature? Every app's next message from it carries the new one.",
  "/account/dismiss-held": "Take this message off the list? It stays in your Drafts folder (or wherever you moved it); only this page forgets it.",
};

export function accountRoutes(deps: AccountRouteOptions) {
  const { config, clock, store } = deps;
  const origin = new URL(config.baseUrl).origin;
  const key = config.secretKey;
  const actionDeps = { view: store.ownerView, activity: store.activity, events: deps.events, log: deps.log, identities: store.identities };
  const readers = { view: store.ownerView, caps: deps.caps, identities: store.identities, subjects: store.heldSubjects };
  const heldDeps = { view: store.ownerView, subjects: store.heldSubjects, activity: store.activity };
  const signInDeps = {
    config, limits: deps.limits, inflight: deps.liveLogins, verify: deps.verifyLogin, log: deps.log, sessions: store.accountSessions,
  };
  const startDeps = { config, providers: deps.providers, flows: store.upstreamFlows, clock };
  const signInCtx = signInContext(origin, deps.providers);
  const freshSignIn = (status = 200, error?: string, values: Body = {}, headers: Record<string, string> = {}) =>
    signInPage(signInCtx, signInFormToken(key, clock()), values, status, error, headers);
  const sessionOf = async (request: Request): Promise<AccountSession | null> => {
    const id = accountCookie(request, config.baseUrl);
    return id ? store.accountSessions.find(id) : null;
  };
  const done = (r: ActionResult): Response => r === "done" ? seeOther("/account")
    : r === "not_found" ? accountError(origin, 404, "Not found", "There is no such connection of this mailbox.")
    : accountError(origin, 400, "Not a valid choice", "Go back to the page and choose again.");

  /** The checks every action shares; the Response to send when one fails, or the session. */
  async function gate(request: Request, body: Body, path: string): Promise<AccountSession | Response> {
    const session = await sessionOf(request);
    if (!session) return freshSignIn(401, "Sign in to continue.", {}, { "set-cookie": clearAccountCookie(config.baseUrl) });
    if (!sessionCsrfValid(key, session.idHash, body.csrf_token)) return accountError(origin, 403, "This form could not be verified", "Its security token is missing or wrong.");
    if (body.confirm !== "1" && QUESTIONS[path]) {
      const { csrf_token, grant, send, send_as, signature, address, held } = body;
      const fields = Object.fromEntries(Object.entries({ csrf_token, grant, send, send_as, signature, address, held }).filter(([, v]) => v !== undefined)) as Record<string, string>;
      return confirmPage(origin, path, QUESTIONS[path]!, fields);
    }
    return session;
  }

  const parse = limitedBody(deps.formBodyMs);
  const action = (path: string, run: (s: AccountSession, b: Body) => Promise<Response>) =>
    [path, async ({ body, request }: { body: Body; request: Request }) => {
      const s = await gate(request, body, path);
      return s instanceof Response ? s : run(s, body);
    }, { body: AccountBody, parse }] as const;

  return new Elysia({ name: "account" })
    .use(noStore(["/account", "/account/*"]))
    .get("/account", async ({ request, query }) => {
      const session = await sessionOf(request);
      if (!session) return freshSignIn();
      const data = await accountData(readers, session, query as { grant?: string; page?: string });
      return accountPage(origin, sessionCsrf(key, session.idHash), data);
    })
    .post("/account/sign-in", async ({ body, request, server }) => {
      if (!signInFormTokenValid(key, body.csrf_token, clock())) return freshSignIn(403, "The form had expired. Please sign in again.", body);
      const oauth = body.upstream ? deps.providers.find(body.upstream) : null;
      if (oauth) {
        const slot = await deps.limits.authorize.reserve([clientKey(clientAddress(request, server, config.trustProxy))]);
        if ("retryAfter" in slot) {
          return freshSignIn(429, "Too many sign-ins were started from here. Please try again later.", body, { "retry-after": String(slot.retryAfter) });
        }
        const started = await startAccountSignIn(startDeps, oauth, body.email);
        return seeOther(started.location, { "set-cookie": setSignInCookie(config.baseUrl, started.binding) });
      }
      const out = await accountSignIn(signInDeps, body, clientAddress(request, server, config.trustProxy));
      if (out.kind === "session") return seeOther("/account", { "set-cookie": setAccountCookie(config.baseUrl, out.id) });
      return freshSignIn(out.status, out.message, body, out.retryAfter ? { "retry-after": String(out.retryAfter) } : {});
    }, { body: AccountBody, parse })
    .post(...action("/account/revoke", async (s, b) => done(await revokeConnection(actionDeps, s, b.grant ?? ""))))
    .post(...action("/account/remove-mailbox", async (s, b) => done(await removeMailbox(actionDeps, s, b.grant ?? ""))))
    .post(...action("/account/send-policy", async (s, b) => done(await changeSendPolicy(actionDeps, s, b.grant ?? "", b.send))))
    .post(...action("/account/revoke-all", async (s) => {
      await revokeAll(actionDeps, s);
      return seeOther("/account");
    }))
    .post(...action("/account/identities", async (s, b) => {
      const r = await setIdentities(actionDeps, s, b.send_as, b.signature);
      return r.ok ? seeOther("/account") : accountError(origin, 400, "Not saved", r.message);
    }))
    .post(...action("/account/signature", async (s, b) => {
      const r = await setSignature({ identities: store.identities, activity: store.activity }, s, b.address, b.signature);
      return r.ok ? seeOther("/account") : accountError(origin, r.status, "Not saved", r.message);
    }))
    .post(...action("/account/dismiss-held", async (s, b) => {
      const r = await dismissHeld(heldDeps, s, b.held);
      return r === "done" ? seeOther("/account") : accountError(origin, 404, "Not found", "There is no such held message of this mailbox.");
    }))
    .post(...action("/account/sign-out", async (s) => {
      await store.accountSessions.end(s.idHash);
      return seeOther("/account", { "set-cookie": clearAccountCookie(config.baseUrl) });
    }));
}
