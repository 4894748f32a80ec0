// A fake OAuth 2.0 provider for tests, a real HTTP server on loopback (docs/oauth-providers.md §5): an
// authorization endpoint with a sign-in and consent page, a token endpoint for authorization_code
// (PKCE S256) and refresh_token (rotation, short access-token lifetimes on the client's own clock), a
// token introspection endpoint (RFC 7662) that the test Dovecot's oauth2 passdb asks, and userinfo.
// Failures a test needs are scripted per client: an authorization error (AADSTS…), a token error,
// consent revoked, IMAP turned off for a user.
import type { FileProviderSettings } from "../../../src/config/oauth-providers.ts";
import { consentPage } from "./consent.ts";
import { idToken, s256, TokenBook, type Clock, type FakeClientOptions } from "./tokens.ts";

export interface ScriptedError { error: string; description: string; status?: number }

export interface FakeClient {
  options: FakeClientOptions;
  /** refreshAttempts: every refresh_token request; refreshes: those answered with tokens; replays: rotated-out tokens sent again. */
  counts: { codeExchanges: number; refreshAttempts: number; refreshes: number; replays: number };
  /** Consumed by the next Accept: the provider redirects back with this error instead of a code. */
  authorizeError: ScriptedError | null;
  /** Consumed by the next token request of this client. */
  tokenError: ScriptedError | null;
  /** While set, token requests of this client wait for it (to make two refreshes overlap). */
  hold: Promise<void> | null;
  /** RFC 9207 §2: the `iss` this provider puts on its redirects back (code or error); none while null. */
  callbackIss: string | null;
  /** Claims merged into the ID tokens of this client (e.g. a scripted `email`). */
  idTokenClaims: Record<string, unknown>;
  /** The providers-file entry for this client (docs/design.md §5), with the given mail endpoints. */
  settings(mail: Pick<FileProviderSettings, "imap" | "smtp">, over?: Partial<FileProviderSettings>): FileProviderSettings;
}

export interface FakeOAuthProvider {
  url: string;
  introspectionUrl: string;
  client(opts: Partial<FakeClientOptions> & { redirectUris: string[] }): FakeClient;
  /** The user an access token belongs to now (the SMTP test server's XOAUTH2 check), or null. */
  userOf(token: string): string | null;
  /** Consent revoked at the provider (or the password changed): every token of the user dies. */
  revokeUser(user: string): void;
  /** Users whose IMAP access is off: introspection answers inactive for their tokens. */
  imapDisabled: Set<string>;
  /** Every access and refresh token issued so far. */
  issued(): string[];
  /** An access token for `user` (an hour) straight from the token book: tests of the IMAP login itself. */
  accessFor(user: string): string;
  stop(): void;
}

let clientSeq = 0;
const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { "cache-control": "no-store" } });
const oauthError = (e: ScriptedError) => json({ error: e.error, error_description: e.description }, e.status ?? 400);

export function startFakeOAuth(): FakeOAuthProvider {
  const book = new TokenBook();
  const clients = new Map<string, FakeClient>();
  const pendingAuth = new Map<string, { client: string; redirectUri: string; state: string; challenge: string; scope: string }>();
  const imapDisabled = new Set<string>();
  const clockOf = (id: string): Clock => clients.get(id)?.options.clock ?? Date.now;

  function back(redirectUri: string, params: Record<string, string>, c?: FakeClient): Response {
    const url = new URL(redirectUri);
    const iss = c?.callbackIss;
    for (const [k, v] of Object.entries(iss ? { ...params, iss } : params)) url.searchParams.set(k, v);
    return new Response(null, { status: 302, headers: { location: url.href } });
  }

  function authorize(url: URL): Response {
    const q = url.searchParams;
    const c = clients.get(q.get("client_id") ?? "");
    // Like Microsoft: a bad client or redirect URI is shown on the provider's page, never redirected.
    if (!c || !c.options.redirectUris.includes(q.get("redirect_uri") ?? "")) return new Response("unknown client or redirect_uri", { status: 400 });
    if (q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge") || !q.get("state")) {
      return back(q.get("redirect_uri")!, { error: "invalid_request", error_description: "code, S256 and state are required", state: q.get("state") ?? "" });
    }
    const id = crypto.randomUUID();
    pendingAuth.set(id, { client: c.options.id, redirectUri: q.get("redirect_uri")!, state: q.get("state")!, challenge: q.get("code_challenge")!, scope: q.get("scope") ?? "" });
    return new Response(consentPage(id, c.options.id, q.get("scope") ?? "", q.get("login_hint") ?? ""), { headers: { "content-type": "text/html; charset=utf-8" } });
  }

  async function decision(req: Request): Promise<Response> {
    const f = new URLSearchParams(await req.text());
    const p = pendingAuth.get(f.get("request") ?? "");
    if (!p) return new Response("unknown request", { status: 400 });
    pendingAuth.delete(f.get("request")!);
    const c = clients.get(p.client)!;
    if (f.get("decision") !== "accept") return back(p.redirectUri, { error: "access_denied", error_description: "AADSTS65004: User declined to consent to access the app.", state: p.state }, c);
    const scripted = c.authorizeError;
    c.authorizeError = null;
    if (scripted) return back(p.redirectUri, { error: scripted.error, error_description: scripted.description, state: p.state }, c);
    const code = book.issueCode({ client: p.client, user: (f.get("login") ?? "").trim().toLowerCase(), redirectUri: p.redirectUri, challenge: p.challenge, scope: p.scope }, c.options.clock());
    return back(p.redirectUri, { code, state: p.state }, c);
  }

  function tokens(c: FakeClient, user: string, scope: string, refreshToken: string) {
    const access = book.issueAccess(c.options, user);
    return json({ token_type: "Bearer", access_token: access.token, expires_in: access.expiresIn, scope, refresh_token: refreshToken,
      id_token: idToken(url, c.options.id, user, c.idTokenClaims) });
  }

  async function token(req: Request): Promise<Response> {
    const f = new URLSearchParams(await req.text());
    const c = clients.get(f.get("client_id") ?? "");
    if (!c || (c.options.secret !== null && f.get("client_secret") !== c.options.secret)) return oauthError({ error: "invalid_client", description: "AADSTS7000215: Invalid client secret provided.", status: 401 });
    if (f.get("grant_type") === "refresh_token") c.counts.refreshAttempts++; // counted on arrival, before any hold
    if (c.hold) await c.hold;
    const scripted = c.tokenError;
    c.tokenError = null;
    if (scripted) return oauthError(scripted);
    if (f.get("grant_type") === "authorization_code") {
      const code = book.takeCode(f.get("code") ?? "");
      if (!code || code.client !== c.options.id || code.redirectUri !== f.get("redirect_uri") || s256(f.get("code_verifier") ?? "") !== code.challenge) {
        return oauthError({ error: "invalid_grant", description: "AADSTS70008: The provided authorization code or refresh token has expired." });
      }
      c.counts.codeExchanges++;
      return tokens(c, code.user, code.scope, book.issueRefresh(c.options.id, code.user, code.scope));
    }
    if (f.get("grant_type") === "refresh_token") {
      const old = f.get("refresh_token") ?? "";
      if (book.spent.has(old)) c.counts.replays++;
      const r = book.refresh.get(old);
      if (!r || r.client !== c.options.id) return oauthError({ error: "invalid_grant", description: "AADSTS50173: The provided grant has expired due to it being revoked." });
      c.counts.refreshes++;
      if (!c.options.rotate) return tokens(c, r.user, r.scope, old);
      book.refresh.delete(old);
      book.spent.add(old);
      return tokens(c, r.user, r.scope, book.issueRefresh(c.options.id, r.user, r.scope));
    }
    return oauthError({ error: "unsupported_grant_type", description: "" });
  }

  async function introspect(req: Request): Promise<Response> {
    const user = book.activeUser(new URLSearchParams(await req.text()).get("token") ?? "", clockOf);
    return json(user && !imapDisabled.has(user) ? { active: true, username: user, email: user } : { active: false });
  }

  function userinfo(req: Request): Response {
    const user = book.activeUser((req.headers.get("authorization") ?? "").replace(/^Bearer /, ""), clockOf);
    return user ? json({ sub: s256(user).slice(0, 16), email: user }) : json({ error: "invalid_token" }, 401);
  }

  const server = Bun.serve({
    port: 0, hostname: "127.0.0.1",
    async fetch(req) {
      const u = new URL(req.url);
      if (req.method === "GET" && u.pathname === "/authorize") return authorize(u);
      if (req.method === "POST" && u.pathname === "/authorize/decision") return decision(req);
      if (req.method === "POST" && u.pathname === "/token") return token(req);
      if (req.method === "POST" && u.pathname === "/introspect") return introspect(req);
      if (req.method === "GET" && u.pathname === "/userinfo") return userinfo(req);
      return new Response("not found", { status: 404 });
    },
  });
  const url = `http://127.0.0.1:${server.port}`;

  return {
    url,
    introspectionUrl: `${url}/introspect`,
    imapDisabled,
    client(opts) {
      const seq = ++clientSeq;
      const options: FakeClientOptions = { id: `client-${seq}`, secret: `secret-${seq}-0123456789`, accessTtlS: 3600, rotate: true, clock: Date.now, ...opts };
      const c: FakeClient = {
        options, counts: { codeExchanges: 0, refreshAttempts: 0, refreshes: 0, replays: 0 }, authorizeError: null, tokenError: null, hold: null, callbackIss: null, idTokenClaims: {},
        settings: (mail, over = {}) => ({
          id: `fake${seq}`, name: "Fake Mail", authorizationEndpoint: `${url}/authorize`, tokenEndpoint: `${url}/token`,
          userinfoEndpoint: `${url}/userinfo`, clientId: options.id, clientSecret: options.secret,
          scopes: ["mail", "openid", "email", "offline_access"], addressFrom: "id_token", sasl: "xoauth2",
          authorizeParams: {}, savesSent: false, issuer: null, ...mail, ...over,
        }),
      };
      clients.set(options.id, c);
      return c;
    },
    userOf: (token) => {
      const user = book.activeUser(token, clockOf);
      return user && !imapDisabled.has(user) ? user : null;
    },
    revokeUser: (user) => book.revokeUser(user.toLowerCase()),
    issued: () => [...book.issued],
    accessFor(user) {
      return book.issueAccess(this.client({ redirectUris: [] }).options, user.toLowerCase()).token;
    },
    stop: () => server.stop(true),
  };
}
