// What an OAuth provider's refusal means for the person in front of the setup form, or for a tool call
// (docs/oauth-providers.md §4): consent declined, an account outside the configured tenant, an app
// the provider does not know, a secret that expired. Microsoft puts the reason in `error_description`
// as an AADSTS number; the words here are ours, the number is kept so an operator can look it up.
import { cleanLine } from "../../mail/content/sanitize.ts";

/** Who can fix it: the person (sign in again, other account), the operator (app registration), or nobody now (try later). */
export type UpstreamErrorKind = "refused" | "misconfigured" | "unavailable" | "lost";

export class UpstreamError extends Error {
  constructor(readonly kind: UpstreamErrorKind, message: string, readonly code: string | null = null) {
    super(message);
    this.name = "UpstreamError";
  }
}

const OPERATOR = "whoever runs this server must fix the app registration";

/** Microsoft Entra errors seen at the authorization and token endpoints, by AADSTS number. */
const AADSTS: Record<string, [UpstreamErrorKind, (name: string) => string]> = {
  "65004": ["refused", (n) => `You declined the permissions at ${n}. To connect the mailbox, sign in again and accept them.`],
  "65001": ["refused", (n) => `The permissions at ${n} have not been granted to this app yet. Sign in again and accept them; in an organisation an administrator may have to approve the app first.`],
  "90094": ["refused", () => "Your organisation requires an administrator to approve this app before anyone can use it. Ask your Microsoft 365 administrator to grant admin consent."],
  "50020": ["refused", () => "That Microsoft account does not belong to the organisation (tenant) this server's app is set up for. Sign in with an account of that organisation, or ask whoever runs this server to use the tenant \"common\"."],
  "500200": ["refused", () => "This server's Microsoft app accepts only work or school accounts, not personal ones (Outlook.com, Hotmail). Sign in with a work or school account, or ask whoever runs this server to allow personal accounts."],
  "50105": ["refused", () => "Your organisation has not given your account access to this app. Ask your administrator to assign it to you."],
  "53003": ["refused", () => "Your organisation's sign-in policy (Conditional Access) blocked this sign-in. Ask your administrator."],
  "50194": ["misconfigured", () => `This server's Microsoft app is single-tenant but the server signs in through the "common" tenant: ${OPERATOR} (set MAILBOX_MCP_MICROSOFT_TENANT to the tenant id).`],
  "700016": ["misconfigured", () => `Microsoft does not know this server's app in that directory (wrong client id or tenant): ${OPERATOR}.`],
  "50011": ["misconfigured", () => `The app's redirect URI at Microsoft does not match this server's: ${OPERATOR} (the redirect URI must be this server's public address followed by /oauth/upstream/callback).`],
  "7000215": ["misconfigured", () => `Microsoft refused this server's client secret: ${OPERATOR} (MAILBOX_MCP_MICROSOFT_CLIENT_SECRET).`],
  "7000222": ["misconfigured", () => `This server's client secret at Microsoft has expired: ${OPERATOR} (make a new secret).`],
  "70011": ["misconfigured", () => `Microsoft refused the permissions this server asks for: ${OPERATOR}.`],
  "70008": ["refused", (n) => `The sign-in at ${n} took too long and expired. Try again.`],
  "54005": ["refused", (n) => `That sign-in at ${n} was already used. Try again.`],
  "50173": ["lost", (n) => `The sign-in at ${n} expired or was revoked (the password was changed): reconnect the mailbox.`],
  "700082": ["lost", (n) => `The sign-in at ${n} expired after a long time without use: reconnect the mailbox.`],
};

/** By the OAuth error code (RFC 6749 §4.1.2.1, §5.2) when no AADSTS number says more. */
function byCode(error: string, name: string, atRefresh: boolean): [UpstreamErrorKind, string] {
  switch (error) {
    case "access_denied": return ["refused", `You did not allow access at ${name}. To connect the mailbox, sign in again and accept.`];
    case "consent_required": case "interaction_required": case "login_required":
      return ["refused", `${name} needs you to sign in and accept the permissions again. Try again.`];
    case "invalid_grant":
      return atRefresh ? ["lost", `The sign-in at ${name} expired or was revoked: reconnect the mailbox.`]
        : ["refused", `The sign-in at ${name} could not be completed (its code expired or was already used). Try again.`];
    case "invalid_client": case "unauthorized_client": case "unsupported_grant_type": case "unsupported_response_type":
      return ["misconfigured", `${name} refused this server's app (${error}): ${OPERATOR}.`];
    case "invalid_scope": return ["misconfigured", `${name} refused the permissions this server asks for (invalid_scope): ${OPERATOR}.`];
    case "invalid_request": return ["misconfigured", `${name} refused the sign-in request (invalid_request): ${OPERATOR}.`];
    case "server_error": case "temporarily_unavailable": return ["unavailable", `${name} could not complete the sign-in just now. Try again in a few minutes.`];
    default: return ["refused", `${name} refused the sign-in (${error}).`];
  }
}

/** The provider's own words, one line, without Microsoft's trace and correlation ids. */
function detail(description: string | null): string {
  if (!description) return "";
  const first = cleanLine(description.split(/\r?\n|Trace ID:/)[0] ?? "").slice(0, 300);
  return first;
}

/**
 * An error answer from the authorization endpoint (redirected back to us) or the token endpoint.
 * `atRefresh`: `invalid_grant` then means the refresh token is dead for good.
 */
export function upstreamError(name: string, error: string, description: string | null, atRefresh = false): UpstreamError {
  const aadsts = /AADSTS(\d+)/.exec(description ?? "")?.[1];
  const known = aadsts ? AADSTS[aadsts] : undefined;
  if (known) return new UpstreamError(known[0], `${known[1](name)} (AADSTS${aadsts})`, error);
  const [kind, message] = byCode(error, name, atRefresh);
  const said = detail(description);
  const withDetail = said && kind !== "lost" ? `${message} ${name} said: “${said}”` : message;
  return new UpstreamError(kind, withDetail, error);
}
