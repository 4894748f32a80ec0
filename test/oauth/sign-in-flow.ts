// Driving a sign-in at the fake OAuth provider over real HTTP, as a browser would: the setup form →
// POST /oauth/connect (303 to the provider, with the sign-in cookie) → the provider's consent page →
// its decision (302 back to /oauth/upstream/callback) → our answer. Shared by the sign-in tests.
import { expect } from "bun:test";
import type { FakeClient, FakeOAuthProvider } from "../support/fake-oauth/server.ts";
import { authorizeQuery, formIds, newVerifier, REDIRECT, tokenFields } from "./flow.ts";

export interface SignInOptions {
  login?: string;
  decision?: "accept" | "decline";
  /** Extra setup-form fields (email as login hint, access…). */
  form?: Record<string, string>;
  /** Send the callback without the cookie, or with another. */
  cookie?: string | null;
}

export interface SignInResult {
  /** Our answer to the callback. */
  res: Response;
  verifier: string;
  /** The 303 to the provider, for its parameters. */
  toProvider: URL;
  cookie: string;
  callback: URL;
}

const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) => fetch(url, {
  method: "POST", redirect: "manual", body: new URLSearchParams(fields),
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
});

/** The setup form's ids for a fresh authorization request. */
export async function openForm(base: string, verifier: string): Promise<{ html: string; ids: { request_id: string; csrf_token: string } }> {
  const page = await fetch(`${base}/oauth/authorize?${authorizeQuery(verifier)}`);
  const html = await page.text();
  return { html, ids: formIds(html) };
}

/** Sends the form for `providerId` and follows the sign-in at the fake provider back to our callback. */
export async function signIn(base: string, providerId: string, opts: SignInOptions = {}): Promise<SignInResult> {
  const verifier = newVerifier();
  const { ids } = await openForm(base, verifier);
  // send=direct: these tests send through a signed-in mailbox as before send policies existed; the
  // form's own default (ask for new recipients) is not what they are about (test/oauth/sign-in.test.ts checks it survives).
  const toForm = await post(`${base}/oauth/connect`, { ...ids, provider: providerId, send: "direct", ...opts.form });
  if (toForm.status !== 303) throw new Error(`connect answered ${toForm.status}: ${await toForm.text()}`);
  const toProvider = new URL(toForm.headers.get("location")!);
  const cookie = (toForm.headers.get("set-cookie") ?? "").split(";")[0]!;
  const consent = await (await fetch(toProvider)).text();
  const request = /name="request" value="([^"]+)"/.exec(consent)?.[1];
  if (!request) throw new Error(`no consent page: ${consent.slice(0, 200)}`);
  const back = await post(new URL("/authorize/decision", toProvider).href, { request, login: opts.login ?? "alice@example.test", decision: opts.decision ?? "accept" });
  const callback = new URL(back.headers.get("location")!);
  const sent = opts.cookie === undefined ? cookie : opts.cookie;
  const res = await fetch(callback, { redirect: "manual", headers: sent ? { cookie: sent } : {} });
  return { res, verifier, toProvider, cookie, callback };
}

/** A sign-in that must succeed, through the token exchange: the MCP access token. */
export async function signedInToken(base: string, providerId: string, opts: SignInOptions = {}): Promise<string> {
  const { res, verifier } = await signIn(base, providerId, opts);
  if (res.status !== 303) throw new Error(`callback answered ${res.status}: ${await res.text()}`);
  const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
  const tok = await post(`${base}/oauth/token`, tokenFields(code, verifier));
  if (tok.status !== 200) throw new Error(`token answered ${tok.status}: ${await tok.text()}`);
  return ((await tok.json()) as { access_token: string }).access_token;
}

/** A fake-provider client whose tokens run on `clock()` (set once the server's manual clock exists). */
export function fakeClient(oauth: FakeOAuthProvider, base: string, clock: { now: () => number }, over: { accessTtlS?: number; rotate?: boolean } = {}): FakeClient {
  return oauth.client({ redirectUris: [`${base}/oauth/upstream/callback`], clock: () => clock.now(), ...over });
}

/** The callback answered with the setup form again: its status, its message, and never a Location. */
export async function formAgain(r: SignInResult, status: number): Promise<{ message: string; html: string }> {
  expect(r.res.headers.get("location")).toBeNull();
  const html = await r.res.text();
  expect(r.res.status).toBe(status);
  expect(html).toContain('name="csrf_token"');
  const message = /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1] ?? "";
  const decoded = message.replace(/&#x27;|&#39;/g, "'").replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  return { message: decoded, html };
}

export { REDIRECT };
