// Where the token endpoint finds the client's id and secret (RFC 6749 §2.3.1): in the form body
// (client_secret_post) or in an HTTP Basic Authorization header (client_secret_basic, RFC 7617), the
// id and the secret each form-urlencoded before base64 (RFC 6749 Appendix B). §2.3.1 says a server
// MUST accept Basic from every client that was issued a password, so any confidential client may use
// either; the metadata still lists only client_secret_post (clients pick Basic when both are listed).
import { InvalidClientError, InvalidRequestError } from "./errors.ts";

export interface ClientCredentials {
  clientId: string | undefined;
  secret: string | undefined;
  /** The credentials came in a Basic header: a failure then says so in WWW-Authenticate (RFC 6749 §5.2). */
  basic: boolean;
}

/** RFC 6749 §5.2: a 401 after a Basic attempt names the scheme the client used. */
export const BASIC_CHALLENGE = { "www-authenticate": 'Basic realm="oauth", charset="UTF-8"' };

/** application/x-www-form-urlencoded decoding of one value: "+" is a space, then percent-decoding. */
function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replaceAll("+", " "));
  } catch {
    return null;
  }
}

/** The id and secret of a Basic header's credentials, or null when they are not id:secret in base64. */
function basicPair(encoded: string): [string, string] | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return null;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return id === null || secret === null ? null : [id, secret];
}

/**
 * The credentials of a token request. Without a Basic header: the body's. With one: the header's, and a
 * body that sends a secret too is refused (RFC 6749 §2.3: one method per request); a body client_id is
 * allowed only when it names the same client. Other schemes in Authorization are not ours to read.
 */
export function clientCredentials(body: { client_id?: string; client_secret?: string }, authorization: string | null): ClientCredentials {
  const match = /^basic +(\S+) *$/i.exec(authorization?.trim() ?? "");
  if (!match) return { clientId: body.client_id, secret: body.client_secret, basic: false };
  const pair = basicPair(match[1]!);
  if (!pair) throw new InvalidClientError("the Authorization header is not Basic base64(client_id:client_secret)", BASIC_CHALLENGE);
  if (body.client_secret !== undefined) {
    throw new InvalidRequestError("send the client secret either in the Authorization header or in the body, not both (RFC 6749 §2.3)");
  }
  if (body.client_id !== undefined && body.client_id !== pair[0]) {
    throw new InvalidRequestError("client_id in the body names another client than the Authorization header");
  }
  return { clientId: pair[0], secret: pair[1], basic: true };
}
