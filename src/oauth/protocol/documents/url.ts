// Which client_id values name a Client ID Metadata Document (docs/oauth.md §11): an https URL with a
// path, written canonically, because the document must repeat it byte for byte and the setup page
// names its host. Plain http only towards the operator's own network (checked when fetching, src/mail/net/pinned-fetch.ts).
import { OAuthProblem } from "../errors.ts";

const MAX_URL_LENGTH = 1000;

/** A document that cannot be used: the authorize error page (400) says why (docs/design.md §3). */
export class DocumentProblem extends OAuthProblem {
  constructor(description: string, status = 400) {
    super("invalid_client", description, status);
  }
}

/** Whether a client_id is meant as a document URL (anything else is a configured or registered id). */
export const isDocumentClientId = (clientId: string): boolean => /^https?:\/\//i.test(clientId);

/**
 * The document's URL, or a DocumentProblem naming the rule it breaks: https (or http), a path other
 * than "/", no user info, no fragment, and canonical (what URL parsing would print: no dot segments,
 * lower-case host, no default port), so the string compared with the document's client_id is the one fetched.
 */
export function documentUrl(clientId: string): URL {
  const bad = (why: string) => new DocumentProblem(`client_id ${JSON.stringify(clientId.slice(0, 200))} is not a client metadata document URL: ${why}`);
  if (clientId.length > MAX_URL_LENGTH) throw bad(`it is longer than ${MAX_URL_LENGTH} characters`);
  if (!URL.canParse(clientId)) throw bad("it is not a URL");
  const url = new URL(clientId);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw bad("it must start with https://");
  if (url.username || url.password) throw bad("it must not contain a user name or password");
  if (clientId.includes("#")) throw bad("it must not contain a fragment");
  if (url.pathname === "/" || url.pathname === "") throw bad("it must have a path, e.g. https://app.example/oauth/client.json");
  if (url.href !== clientId) throw bad(`it must be written canonically, as ${url.href}`);
  return url;
}
