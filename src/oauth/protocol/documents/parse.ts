// What a fetched client metadata document must say to identify a client here (docs/oauth.md §11):
// a JSON object whose client_id is the URL it was fetched from, byte for byte; redirect URIs this
// server will send a code to; and no shared secret, since a document has no way to agree on one —
// such a client is public and PKCE is its proof, as for a public registered client.
import { checkFlowFields, clientName, isStringArray, MAX_REDIRECT_URIS, MAX_URI_LENGTH } from "../metadata-fields.ts";
import { loopbackRedirect } from "../redirects.ts";
import { DocumentProblem } from "./url.ts";

export interface ClientDocument {
  /** The document's URL, which is the client_id. */
  clientId: string;
  /** Its client_name: self-declared by whoever controls the document's host. */
  name: string | null;
  /** The usable redirect URIs it lists (loopback ones match any port at authorize). */
  redirectUris: string[];
}

/** RFC 8252 §7.1: a private-use scheme in reverse domain name form (com.example.app:/cb). */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/** https anywhere, http only on loopback (RFC 8252 §7.3), or a native app's private-use scheme; never a fragment. */
function usableRedirect(uri: string): boolean {
  if (uri.length > MAX_URI_LENGTH || uri.includes("#") || !URL.canParse(uri)) return false;
  const url = new URL(uri);
  if (url.username || url.password) return false;
  if (url.protocol === "https:") return true;
  if (url.protocol === "http:") return loopbackRedirect(uri) !== null;
  return PRIVATE_USE_SCHEME.test(url.protocol);
}

function redirectUris(value: unknown, refuse: (why: string) => DocumentProblem): string[] {
  if (!isStringArray(value) || value.length === 0 || value.length > MAX_REDIRECT_URIS) {
    throw refuse(`redirect_uris must be an array of 1 to ${MAX_REDIRECT_URIS} URIs`);
  }
  const kept = [...new Set(value.filter(usableRedirect))];
  if (kept.length === 0) throw refuse("none of its redirect_uris is https, an http loopback URI or a private-use scheme");
  return kept;
}

function parseJson(body: string, refuse: (why: string) => DocumentProblem): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw refuse("it is not valid JSON");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw refuse("it is not a JSON object");
  return value as Record<string, unknown>;
}

/** The client the document describes, or a DocumentProblem naming what is wrong with it. */
export function parseClientDocument(url: string, body: string): ClientDocument {
  const refuse = (why: string) => new DocumentProblem(`The client metadata document ${url} cannot be used: ${why}.`);
  const m = parseJson(body, refuse);
  if (m.client_id !== url) {
    throw refuse(`its client_id must be exactly the document's URL, but it says ${JSON.stringify(String(m.client_id ?? "")).slice(0, 200)}`);
  }
  if (m.client_secret !== undefined || m.client_secret_expires_at !== undefined) {
    throw refuse("a client metadata document must not carry a client_secret");
  }
  const method = m.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") {
    throw refuse(`token_endpoint_auth_method is ${JSON.stringify(method)}, but this server accepts only public clients ("none", with PKCE) from documents`);
  }
  checkFlowFields(m, refuse);
  return { clientId: url, name: clientName(m.client_name, refuse), redirectUris: redirectUris(m.redirect_uris, refuse) };
}
