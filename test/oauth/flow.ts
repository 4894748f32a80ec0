// Helpers for driving the OAuth flow through app.handle(): authorize, connect (against the harness
// Dovecot), token. Shared by test/oauth and test/http.
import { randomBytes } from "node:crypto";
import { s256 } from "../../src/oauth/protocol/pkce.ts";
import type { Harness } from "../support/harness.ts";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "../support/app.ts";

export const REDIRECT = "http://localhost:6274/oauth/callback";

export interface Handler {
  handle(request: Request): Promise<Response>;
}

export function newVerifier(): string {
  return randomBytes(48).toString("base64url"); // 64 unreserved characters
}

export function authorizeQuery(verifier: string, overrides: Record<string, string | null> = {}): URLSearchParams {
  const base: Record<string, string | null> = {
    client_id: TEST_CLIENT_ID, redirect_uri: REDIRECT, response_type: "code",
    code_challenge: s256(verifier), code_challenge_method: "S256", state: "state-123", ...overrides,
  };
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(base)) if (v !== null) q.set(k, v);
  return q;
}

export function authorize(app: Handler, query: URLSearchParams, headers: Record<string, string> = {}) {
  return app.handle(new Request(`http://localhost/oauth/authorize?${query}`, { headers }));
}

/** request_id and csrf_token out of the form's hidden inputs. */
export function formIds(html: string): { request_id: string; csrf_token: string } {
  const rid = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (!rid || !csrf) throw new Error("setup form without request_id / csrf_token");
  return { request_id: rid, csrf_token: csrf };
}

/** Setup form fields for Alice on the harness Dovecot (custom provider, no TLS). */
export function aliceFields(h: Harness, ids: { request_id: string; csrf_token: string }, overrides: Record<string, string> = {}) {
  const alice = h.dovecot.users.alice;
  return {
    ...ids, provider: "custom", email: alice.email, password: alice.pass,
    imap_host: h.dovecot.host, imap_port: String(h.dovecot.port), imap_security: "none",
    smtp_host: h.smtp.host, smtp_port: String(h.smtp.port), smtp_security: "none",
    ...overrides,
  };
}

export function postForm(app: Handler, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return app.handle(new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  }));
}

/** A page's words without markup: what the person would read (the form's error, in a failure message). */
const pageText = (html: string) => html.replace(/<(style|script)[\s\S]*?<\/\1>/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();

/**
 * authorize → form → connect with Alice's right password; returns the code from the 303. `fields`
 * replace form fields (e.g. the mail hosts as a container sees them).
 */
export async function obtainCode(app: Handler, h: Harness,
  opts: { verifier?: string; query?: Record<string, string | null>; fields?: Record<string, string> } = {}) {
  const verifier = opts.verifier ?? newVerifier();
  const page = await authorize(app, authorizeQuery(verifier, opts.query));
  if (page.status !== 200) throw new Error(`authorize answered ${page.status}: ${await page.text()}`);
  const ids = formIds(await page.text());
  const res = await postForm(app, "/oauth/connect", aliceFields(h, ids, opts.fields));
  if (res.status !== 303) throw new Error(`connect answered ${res.status}: ${pageText(await res.text()).slice(0, 600)}`);
  const location = new URL(res.headers.get("location")!);
  return { verifier, code: location.searchParams.get("code")!, location };
}

export function tokenFields(code: string, verifier: string, overrides: Record<string, string | null> = {}): Record<string, string> {
  const base: Record<string, string | null> = {
    grant_type: "authorization_code", code, client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET,
    code_verifier: verifier, redirect_uri: REDIRECT, ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== null));
}

/** The whole flow to an access token; `fields` overrides the setup form's (another user, a send policy). */
export async function obtainToken(app: Handler, h: Harness, fields?: Record<string, string>) {
  const { code, verifier } = await obtainCode(app, h, { fields });
  const res = await postForm(app, "/oauth/token", tokenFields(code, verifier));
  if (res.status !== 200) throw new Error(`token answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { access_token: string };
  return { code, verifier, token: body.access_token };
}
