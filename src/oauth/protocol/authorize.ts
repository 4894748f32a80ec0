// Validation of GET /oauth/authorize (docs/contract.md §5, docs/design.md §2–§3).
// Nothing here redirects: RFC 6749 §4.1.2.1 forbids redirecting to an unverified redirect_uri, and we
// report every failure to the person instead (401 for a wrong client_id, 400 otherwise).
import type { Config } from "../../config.ts";
import type { ClientRegistry, OAuthClient } from "./clients.ts";
import type { AdmitFetch } from "./documents/documents.ts";
import { InvalidRequestError, InvalidScopeError, OAuthProblem, UnauthorizedClientError } from "./errors.ts";
import { SCOPES } from "../../scopes.ts";
import { isOwnResource } from "./metadata.ts";
import { isValidChallenge } from "./pkce.ts";

export interface AuthorizeRequest {
  /** The configured client's id, or a registered client's (docs/oauth.md §9). */
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  /** Null when a client other than the configured one sent none (OAuth 2.1 §4.1.1; docs/design.md §3). */
  state: string | null;
  resource: string | null;
  /** The scope asked for (values checked, order kept), or null when none was: caps the form's access choice. */
  scope: string | null;
}

/** A validated request, and the client it is for (whom the setup form names). */
export type ValidAuthorize = AuthorizeRequest & { client: OAuthClient };

/** A validated request waits this long for its setup form to be submitted (docs/design.md §3). */
export const PENDING_TTL_MS = 10 * 60_000;

const MAX_STATE = 2048;
const SINGLE = ["client_id", "redirect_uri", "response_type", "code_challenge", "code_challenge_method", "state", "scope", "resource"];

/** RFC 6749 §3.1: parameters must not appear more than once. */
function single(params: URLSearchParams): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of SINGLE) {
    const values = params.getAll(name);
    if (values.length > 1) throw new InvalidRequestError(`${name} must not be repeated`);
    out[name] = values[0];
  }
  return out;
}

/**
 * The client and redirect_uri checks come first: only after them may anything mention the client. The
 * configured client's URI must be on the allowlist; a registered client's, one it registered (clients.ts).
 */
async function checkClient(p: Record<string, string | undefined>, clients: ClientRegistry, admitFetch?: AdmitFetch): Promise<{ client: OAuthClient; redirectUri: string }> {
  if (!p.client_id) throw new InvalidRequestError("client_id is required");
  const client = await clients.find(p.client_id, admitFetch);
  if (!client) throw new UnauthorizedClientError("unknown client_id");
  if (!p.redirect_uri) throw new InvalidRequestError("redirect_uri is required");
  if (!clients.allowsRedirect(client, p.redirect_uri)) {
    throw new InvalidRequestError("redirect_uri is not registered for this client");
  }
  return { client, redirectUri: p.redirect_uri };
}

/** RFC 7636 §4.3–§4.4.1: S256 only, and the challenge must have the S256 shape. */
function checkPkce(p: Record<string, string | undefined>): string {
  if (p.response_type !== "code") {
    throw new OAuthProblem("unsupported_response_type", "response_type must be code");
  }
  if (!p.code_challenge || !isValidChallenge(p.code_challenge)) {
    throw new InvalidRequestError("code_challenge must be BASE64URL(SHA256(code_verifier)): 43 base64url characters");
  }
  if (p.code_challenge_method !== "S256") throw new InvalidRequestError("code_challenge_method must be S256");
  return p.code_challenge;
}

/** RFC 6749 §3.3 scope: optional, each value known; null when absent or empty. */
function checkScope(p: Record<string, string | undefined>): string | null {
  const values = (p.scope ?? "").split(" ").filter(Boolean);
  if (values.some((v) => !SCOPES.includes(v))) throw new InvalidScopeError();
  return values.length ? values.join(" ") : null;
}

/** RFC 8707 resource: optional, this server. */
function checkResource(p: Record<string, string | undefined>, baseUrl: string): string | null {
  if (p.resource === undefined) return null;
  if (!isOwnResource(baseUrl, p.resource)) {
    throw new OAuthProblem("invalid_target", `resource must be ${baseUrl}/mcp`);
  }
  return p.resource;
}

/**
 * `state`: required of the configured client (docs/contract.md §5). A client that registered itself, or
 * one named by its metadata document, has PKCE S256 as its CSRF defence, so for it state is optional (OAuth 2.1 §4.1.1; docs/design.md §3):
 * the AI SDK's own example providers send none. An empty value counts as absent (RFC 6749 §3.1).
 */
function checkState(p: Record<string, string | undefined>, client: OAuthClient): string | null {
  if (!p.state) {
    if (client.kind !== "configured") return null;
    throw new InvalidRequestError("state is required");
  }
  if (p.state.length > MAX_STATE) throw new InvalidRequestError(`state must be at most ${MAX_STATE} characters`);
  return p.state;
}

/**
 * All checks in the order of docs/contract.md §5 (a client metadata document is fetched, under `admitFetch`,
 * while the client is checked); throws an OAuthProblem (status 400, or 401 for a wrong client_id). */
export async function validateAuthorize(params: URLSearchParams, config: Pick<Config, "baseUrl">, clients: ClientRegistry,
  admitFetch?: AdmitFetch): Promise<ValidAuthorize> {
  const p = single(params);
  const { client, redirectUri } = await checkClient(p, clients, admitFetch);
  const codeChallenge = checkPkce(p);
  const state = checkState(p, client);
  const scope = checkScope(p);
  const resource = checkResource(p, config.baseUrl);
  return { clientId: client.id, redirectUri, codeChallenge, state, resource, scope, client };
}
