// Signing in on the owner's page through an OAuth mail provider (docs/owner.md §7): the same trip as
// the setup form's (src/oauth/provider-sign-in/start.ts: PKCE S256, our own state, the browser bound
// by a cookie), for no pending authorization. The flow row says it was started here (`mode`, sealed
// with it), so the callback opens a page session, never a grant; nothing of the query decides that.
import { randomBytes } from "node:crypto";
import type { Clock } from "../../clock.ts";
import { randomHex } from "../../store/crypto.ts";
import { authorizationUrl, type SignInStartDeps } from "../provider-sign-in/start.ts";
import type { OAuthProvider } from "../provider-sign-in/provider.ts";
import { isMailboxAddress } from "../setup/mailbox-address.ts";

/** As long as the setup form's sign-in may take (a pending authorization's 10 minutes). */
export const ACCOUNT_SIGN_IN_TTL_MS = 10 * 60_000;

export interface AccountStartDeps extends SignInStartDeps {
  clock: Clock;
}

/** The provider's authorization URL and the cookie secret that binds its callback to this browser. */
export async function startAccountSignIn(deps: AccountStartDeps, provider: OAuthProvider, email: string | undefined): Promise<{ location: string; binding: string }> {
  const binding = randomHex(32);
  const codeVerifier = randomBytes(32).toString("base64url"); // 43 characters (RFC 7636 §4.1)
  const hint = (email ?? "").trim();
  const fields = { provider: provider.id, ...(isMailboxAddress(hint) ? { email: hint } : {}) };
  const secrets = { requestId: "", csrfToken: "", codeVerifier, fields, mode: "account" as const };
  const state = await deps.flows.create(null, provider.id, binding, secrets, deps.clock() + ACCOUNT_SIGN_IN_TTL_MS);
  return { location: authorizationUrl(provider, deps.config.baseUrl, state, codeVerifier, fields.email ?? null), binding };
}
