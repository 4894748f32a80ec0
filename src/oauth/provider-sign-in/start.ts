// The setup form's branch for an OAuth mail provider (docs/design.md §5): instead of checking a
// password, send the browser to the provider's authorization endpoint (RFC 6749 §4.1.1) with PKCE
// S256 (RFC 7636) and our own `state`, remembering what the callback will need (src/store/upstream-flows.ts).
import { randomBytes } from "node:crypto";
import type { Config } from "../../config.ts";
import type { OAuthProviders } from "./registry.ts";
import type { OAuthProvider } from "./provider.ts";
import { randomHex } from "../../store/crypto.ts";
import type { PendingRequest } from "../../store/pending.ts";
import type { UpstreamFlows } from "../../store/upstream-flows.ts";
import { s256 } from "../protocol/pkce.ts";
import { chooseAccess } from "../setup/access.ts";
import { chooseSendPolicy } from "../setup/send-choice.ts";
import { controlProblem, type ConnectFields } from "../setup/connect-form.ts";
import { parseIdentityFields } from "../setup/identity-fields.ts";
import { isMailboxAddress } from "../setup/mailbox-address.ts";

export interface SignInStartDeps {
  config: Pick<Config, "baseUrl">;
  providers: OAuthProviders;
  flows: UpstreamFlows;
}

/** Where every provider sends the browser back: registered once at the provider (docs/oauth-providers.md). */
export const CALLBACK_PATH = "/oauth/upstream/callback";
export const callbackUrl = (baseUrl: string) => `${baseUrl}${CALLBACK_PATH}`;

/** Never carried into the sign-in: the secrets of the form and a password typed before switching provider. */
const NOT_KEPT = new Set(["request_id", "csrf_token", "password", "upstream"]);

/** The form's choices to apply when the sign-in comes back (access, and whatever else the form asks). */
function keptFields(fields: ConnectFields, provider: string): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (!NOT_KEPT.has(k) && typeof v === "string") kept[k] = v;
  return { ...kept, provider };
}

/** The provider's authorization URL: its own query kept, ours added (RFC 6749 §3.1). */
export function authorizationUrl(p: OAuthProvider, baseUrl: string, state: string, codeVerifier: string, loginHint: string | null): string {
  const url = new URL(p.authorizationEndpoint);
  const params: Record<string, string> = {
    ...p.authorizeParams,
    response_type: "code", client_id: p.clientId, redirect_uri: callbackUrl(baseUrl), scope: p.scopes.join(" "),
    state, code_challenge: s256(codeVerifier), code_challenge_method: "S256",
    ...(loginHint ? { login_hint: loginHint } : {}),
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/**
 * The person chose `provider` on the form (pending request and CSRF token already checked): check
 * the choices the callback will apply, then go to the provider. The email field, when filled in, is
 * passed as `login_hint`.
 */
export async function startSignIn(deps: SignInStartDeps, provider: OAuthProvider, pending: PendingRequest,
  fields: ConnectFields): Promise<{ location: string; binding: string } | { refused: string }> {
  const access = chooseAccess(fields.access, pending.scope);
  if (!access.ok) return { refused: access.message };
  const send = chooseSendPolicy(fields.send, access.access);
  if (!send.ok) return { refused: send.message };
  const typed = controlProblem(fields);
  if (typed) return { refused: typed };
  // Checked now, so a mistake in them is shown before the provider's page, not after it (stored by the callback).
  const identities = parseIdentityFields(fields.send_as, fields.signature);
  if (!identities.ok) return { refused: identities.message };
  const binding = randomHex(32);
  const codeVerifier = randomBytes(32).toString("base64url"); // 43 characters (RFC 7636 §4.1)
  const secrets = { requestId: fields.request_id!, csrfToken: fields.csrf_token!, codeVerifier, fields: keptFields(fields, provider.id) };
  const state = await deps.flows.create(pending.idHash, provider.id, binding, secrets, pending.expiresAt);
  const email = (fields.email ?? "").trim();
  const location = authorizationUrl(provider, deps.config.baseUrl, state, codeVerifier, isMailboxAddress(email) ? email : null);
  return { location, binding };
}
