// RFC 7591 dynamic client registration (docs/oauth.md §9): check the client metadata, keep what this
// server supports (§3.2.1 lets it replace requested values), store the client, answer with its information.
// Only with MAILBOX_MCP_OPEN_REGISTRATION; the route does not exist otherwise.
import type { Clock } from "../../clock.ts";
import type { ClientAuthMethod, RegisteredClient } from "../../store/clients.ts";
import { hashSecret, randomHex } from "../../store/crypto.ts";
import { READ_WRITE_SCOPE } from "../../scopes.ts";
import type { ClientRegistry } from "./clients.ts";
import { OAuthProblem } from "./errors.ts";
import { checkFlowFields, clientName, isStringArray, MAX_REDIRECT_URIS, MAX_URI_LENGTH } from "./metadata-fields.ts";
import { clientKey, type Limiters } from "../rate-limits/rate-limit.ts";

/** Live registrations at most, across all clients. */
export const MAX_CLIENTS = 1000;
/** A registration with no grant for this long expires (a token lives 30 days too, so none is left). */
export const CLIENT_IDLE_MS = 30 * 24 * 60 * 60_000;
/** At the cap, a never-granted registration older than this may be deleted to make room. */
export const EVICT_UNUSED_AFTER_MS = 60 * 60_000;


/** RFC 7591 §3.2.2: 400 with invalid_redirect_uri or invalid_client_metadata. */
export class RegistrationError extends OAuthProblem {
  constructor(error: "invalid_redirect_uri" | "invalid_client_metadata", description: string) {
    super(error, description);
  }
}

export interface ClientRequest {
  redirectUris: string[];
  authMethod: ClientAuthMethod;
  name: string | null;
}

const bad = (description: string) => new RegistrationError("invalid_client_metadata", description);

/**
 * Keep the registrable redirect URIs (allowlist, or loopback with any port). A request whose URIs are all
 * foreign is refused; from a mixed list only the registrable ones are registered and returned, because
 * real clients send fixed lists (VS Code adds https://vscode.dev/redirect to its loopback URIs).
 */
function redirectUris(value: unknown, registrable: (uri: string) => boolean): string[] {
  if (!isStringArray(value) || value.length === 0 || value.length > MAX_REDIRECT_URIS) {
    throw new RegistrationError("invalid_redirect_uri", `redirect_uris must be an array of 1 to ${MAX_REDIRECT_URIS} URIs`);
  }
  const kept = [...new Set(value.filter((uri) => uri.length <= MAX_URI_LENGTH && registrable(uri)))];
  if (kept.length === 0) {
    throw new RegistrationError("invalid_redirect_uri",
      "no redirect URI is allowed here: use a loopback URI (http://localhost:PORT/… or http://127.0.0.1:PORT/…) " +
      "or one the server's operator allowed (MAILBOX_MCP_EXTRA_REDIRECT_URIS)");
  }
  return kept;
}

/**
 * "none" unless asked otherwise. client_secret_basic is kept as asked (Microsoft 365 Copilot registers
 * so, then sends the secret in the Authorization header, whatever the answer says); the token endpoint
 * accepts either method from any client with a secret (client-credentials.ts).
 */
function authMethod(value: unknown): ClientAuthMethod {
  if (value === undefined || value === "none") return "none";
  if (value === "client_secret_post" || value === "client_secret_basic") return value;
  throw bad("token_endpoint_auth_method must be none, client_secret_post or client_secret_basic");
}

/** RFC 7591 §2: the metadata this server understands; anything else is ignored, as the RFC requires. */
export function parseClientMetadata(body: unknown, registrable: (uri: string) => boolean): ClientRequest {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw bad("the body must be a JSON object of client metadata");
  const m = body as Record<string, unknown>;
  checkFlowFields(m, bad);
  return {
    redirectUris: redirectUris(m.redirect_uris, registrable), authMethod: authMethod(m.token_endpoint_auth_method), name: clientName(m.client_name, bad),
  };
}

/** RFC 7591 §3.2.1: the client information and the metadata as registered. The secret appears here once. */
export function registrationResponse(client: RegisteredClient, secret: string | null) {
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    ...(client.name ? { client_name: client.name } : {}),
    redirect_uris: client.redirectUris,
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: client.authMethod,
    scope: READ_WRITE_SCOPE,
  };
}

export interface RegisterDeps {
  clients: ClientRegistry;
  clock: Clock;
  /** Registrations per client address (IPv6 by /64), every POST counted (limits.ts). */
  limits: Pick<Limiters, "register">;
}

export type RegisterOutcome =
  | { kind: "created"; body: ReturnType<typeof registrationResponse> }
  | { kind: "refused"; status: 429 | 503; retryAfter: number; description: string };

/** At the cap, room is made only by deleting a stale never-granted registration (docs/oauth.md §9). */
async function hasRoom(deps: RegisterDeps): Promise<boolean> {
  const store = deps.clients.store;
  if ((await store.countLive()) < MAX_CLIENTS) return true;
  return store.evictOldestUnused(deps.clock() - EVICT_UNUSED_AFTER_MS);
}

export async function registerClient(deps: RegisterDeps, body: unknown, clientIp: string): Promise<RegisterOutcome> {
  // Every registration counts, accepted or not: the slot is kept (the limit holds across instances).
  const slot = await deps.limits.register.reserve([clientKey(clientIp)]);
  if ("retryAfter" in slot) {
    return { kind: "refused", status: 429, retryAfter: slot.retryAfter, description: "too many registrations from this address" };
  }
  const req = parseClientMetadata(body, (uri) => deps.clients.registrable(uri));
  if (!(await hasRoom(deps))) {
    return { kind: "refused", status: 503, retryAfter: EVICT_UNUSED_AFTER_MS / 1000, description: "too many registered clients; try again later" };
  }
  const secret = req.authMethod === "none" ? null : randomHex(32);
  const client = await deps.clients.store.insert({
    id: `dyn-${randomHex(16)}`,
    secretHash: secret ? hashSecret(secret) : null,
    authMethod: req.authMethod,
    name: req.name,
    redirectUris: req.redirectUris,
  });
  return { kind: "created", body: registrationResponse(client, secret) };
}
