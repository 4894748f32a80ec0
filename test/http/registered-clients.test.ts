// Registered clients (RFC 7591) at /oauth/authorize, on the setup form and at /oauth/token, next to the
// configured client, which keeps working unchanged with the switch on.
import { describe, expect, test } from "bun:test";
import { getHarness } from "../support/harness.ts";
import { testApp } from "../support/app.ts";
import {
  aliceFields, authorize, authorizeQuery, formIds, newVerifier, obtainCode, obtainToken, postForm, tokenFields,
} from "../oauth/flow.ts";
import { LOOPBACK, registerOk, type Registered } from "../oauth/register-flow.ts";

const JSON_ACCEPT = { accept: "application/json" };
const on = () => testApp({ openRegistration: true });

/** Authorize → form → connect as `client` with `redirect`; the code from the 303. */
async function codeFor(t: ReturnType<typeof on>, client: Registered, redirect: string) {
  const h = await getHarness();
  return obtainCode(t.app, h, { query: { client_id: client.client_id, redirect_uri: redirect } });
}

function tokenFor(t: ReturnType<typeof on>, client: Registered, code: string, verifier: string, redirect: string,
  extra: Record<string, string | null> = {}) {
  return postForm(t.app, "/oauth/token", tokenFields(code, verifier, {
    client_id: client.client_id, client_secret: client.client_secret ?? null, redirect_uri: redirect, ...extra,
  }));
}

describe("authorize: a registered client's redirect URI", () => {
  const t = on();
  let client: Registered;
  const check = async (redirect: string) => {
    client ??= await registerOk(t.app, { redirect_uris: [LOOPBACK, "https://claude.ai/api/mcp/auth_callback"] });
    return authorize(t.app, authorizeQuery(newVerifier(), { client_id: client.client_id, redirect_uri: redirect }), JSON_ACCEPT);
  };

  test.each([
    ["the registered loopback URI", LOOPBACK, 200],
    ["the same loopback URI on another port (RFC 8252 §7.3)", "http://localhost:61234/callback", 200],
    ["the same loopback URI without a port", "http://localhost/callback", 200],
    ["its registered allowlisted URI", "https://claude.ai/api/mcp/auth_callback", 200],
    ["another path on loopback", "http://localhost:61234/other", 400],
    ["another loopback host (127.0.0.1 for localhost)", "http://127.0.0.1:5173/callback", 400],
    ["an allowlisted URI it did not register", "http://localhost:6274/oauth/callback/debug", 400],
    ["a foreign URI", "https://evil.example/cb", 400],
  ])("%s (%s) → %d", async (_what, redirect, status) => {
    expect((await check(redirect)).status).toBe(status);
  });

  test("an unknown or expired registered client_id is 401 unauthorized_client", async () => {
    const c = await registerOk(t.app);
    t.clock.advance(30 * 24 * 3600_000);
    const res = await authorize(t.app, authorizeQuery(newVerifier(), { client_id: c.client_id, redirect_uri: LOOPBACK }), JSON_ACCEPT);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe("unauthorized_client");
  });

  test("with the switch off, a client registered while it was on is unknown (401)", async () => {
    const off = testApp();
    const c = await registerOk(on().app);
    const res = await authorize(off.app, authorizeQuery(newVerifier(), { client_id: c.client_id, redirect_uri: LOOPBACK }), JSON_ACCEPT);
    expect(res.status).toBe(401);
  });

  test("the configured client still needs an exact allowlisted URI with the switch on", async () => {
    const res = await authorize(t.app, authorizeQuery(newVerifier(), { redirect_uri: "http://localhost:6275/oauth/callback" }), JSON_ACCEPT);
    expect(res.status).toBe(400);
  });
});

describe("the setup form names who is asking", () => {
  test("the self-declared name, escaped, quoted by the page and marked unchecked, and the redirect host", async () => {
    const t = on();
    const c = await registerOk(t.app, { client_name: "<script>alert(1)</script> Mail & Co" });
    const res = await authorize(t.app, authorizeQuery(newVerifier(), { client_id: c.client_id, redirect_uri: "http://localhost:40001/callback" }));
    const html = await res.text();
    expect(html).toContain('<q class="declared">&lt;script&gt;alert(1)&lt;/script&gt; Mail &amp; Co</q>');
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("this server has not checked it");
    expect(html).toContain('<strong class="host">localhost:40001</strong>');
    expect(html).toContain("an app on this computer");
  });

  test("a registered client without a name; the configured client as before (host only)", async () => {
    const t = on();
    const c = await registerOk(t.app, { client_name: undefined });
    const unnamed = await (await authorize(t.app, authorizeQuery(newVerifier(), { client_id: c.client_id, redirect_uri: LOOPBACK }))).text();
    expect(unnamed).toContain("The app gave no name.");
    const configured = await (await authorize(t.app, authorizeQuery(newVerifier()))).text();
    expect(configured).not.toContain("has not checked");
    expect(configured).toContain('<strong class="host">localhost:6274</strong>');
  });

  test("the form shown again after a wrong password still names the client", async () => {
    const h = await getHarness();
    const t = on();
    const c = await registerOk(t.app, { client_name: "Claude Code" });
    const page = await authorize(t.app, authorizeQuery(newVerifier(), { client_id: c.client_id, redirect_uri: LOOPBACK }));
    const res = await postForm(t.app, "/oauth/connect", aliceFields(h, formIds(await page.text()), { password: "wrong" }));
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('<q class="declared">Claude Code</q>');
  });
});

describe("token: registered clients", () => {
  test("a public client redeems its code without a secret; the redirect on another port is kept to the end", async () => {
    const t = on();
    const c = await registerOk(t.app);
    const redirect = "http://localhost:49152/callback";
    const { code, verifier, location } = await codeFor(t, c, redirect);
    expect(location.origin + location.pathname).toBe(redirect);
    const res = await tokenFor(t, c, code, verifier, redirect);
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    expect((await t.grants.findToken(access_token))).not.toBeNull();
  });

  test("replaying a public client's used code revokes its token only with the PKCE verifier (RFC 6749 §10.5)", async () => {
    const t = on();
    const c = await registerOk(t.app);
    const { code, verifier } = await codeFor(t, c, LOOPBACK);
    const { access_token } = (await (await tokenFor(t, c, code, verifier, LOOPBACK)).json()) as { access_token: string };
    // Someone who saw the used code (a log, the history) but never had the verifier: refused, and the
    // person's token lives on. Before, this replay revoked it.
    for (const guess of [newVerifier(), newVerifier()]) expect((await tokenFor(t, c, code, guess, LOOPBACK)).status).toBe(400);
    expect(await t.grants.findToken(access_token)).not.toBeNull();
    // The client itself replaying (it holds the verifier): the code leaked, so the token goes.
    expect((await tokenFor(t, c, code, verifier, LOOPBACK)).status).toBe(400);
    expect(await t.grants.findToken(access_token)).toBeNull();
  });

  test("a confidential client's replay revokes with its secret, whatever the verifier", async () => {
    const t = on();
    const c = await registerOk(t.app, { token_endpoint_auth_method: "client_secret_post" });
    const { code, verifier } = await codeFor(t, c, LOOPBACK);
    const { access_token } = (await (await tokenFor(t, c, code, verifier, LOOPBACK)).json()) as { access_token: string };
    expect((await tokenFor(t, c, code, newVerifier(), LOOPBACK, { client_secret: "wrong".repeat(10) })).status).toBe(401);
    expect(await t.grants.findToken(access_token)).not.toBeNull();
    expect((await tokenFor(t, c, code, newVerifier(), LOOPBACK)).status).toBe(400);
    expect(await t.grants.findToken(access_token)).toBeNull();
  });

  test("a code is bound to its client (RFC 6749 §4.1.3): another client cannot redeem it", async () => {
    const t = on();
    const [a, b] = [await registerOk(t.app), await registerOk(t.app)];
    const { code, verifier } = await codeFor(t, a, LOOPBACK);
    expect((await tokenFor(t, b, code, verifier, LOOPBACK)).status).toBe(400);
    // ... nor the configured client with its secret
    expect((await postForm(t.app, "/oauth/token", tokenFields(code, verifier, { redirect_uri: LOOPBACK }))).status).toBe(400);
    // and the rightful client still can (the failed attempts did not burn the code)
    expect((await tokenFor(t, a, code, verifier, LOOPBACK)).status).toBe(200);
  });

  test("the configured client's code cannot be redeemed by a public registered client", async () => {
    const t = on();
    const c = await registerOk(t.app, { redirect_uris: ["http://localhost:6274/oauth/callback"] });
    const { code, verifier } = await obtainCode(t.app, await getHarness());
    const res = await tokenFor(t, c, code, verifier, "http://localhost:6274/oauth/callback");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_grant");
  });

  test("a client_secret_post client needs its own secret (401 invalid_client without or wrong)", async () => {
    const t = on();
    const c = await registerOk(t.app, { token_endpoint_auth_method: "client_secret_post" });
    const { code, verifier } = await codeFor(t, c, LOOPBACK);
    for (const secret of [null, "0".repeat(64), "test-client-secret-0123456789"]) {
      const res = await tokenFor(t, c, code, verifier, LOOPBACK, { client_secret: secret });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
    }
    expect((await tokenFor(t, c, code, verifier, LOOPBACK)).status).toBe(200);
  });

  test("a grant keeps the registration alive for 30 days from the grant", async () => {
    const t = on();
    const c = await registerOk(t.app);
    t.clock.advance(29 * 24 * 3600_000);
    await codeFor(t, c, LOOPBACK);
    t.clock.advance(29 * 24 * 3600_000);
    expect((await t.clients.find(c.client_id))).not.toBeNull();
    t.clock.advance(24 * 3600_000);
    expect((await t.clients.find(c.client_id))).toBeNull();
  });

  test("a code stored before migration 2 (client_id NULL) belongs to the configured client", async () => {
    const t = on();
    const c = await registerOk(t.app, { redirect_uris: ["http://localhost:6274/oauth/callback"] });
    const { code, verifier } = await obtainCode(t.app, await getHarness());
    await t.db.q`UPDATE codes SET client_id = NULL`;
    expect((await tokenFor(t, c, code, verifier, "http://localhost:6274/oauth/callback")).status).toBe(400);
    expect((await postForm(t.app, "/oauth/token", tokenFields(code, verifier))).status).toBe(200);
  });

  test("the configured client works unchanged with the switch on", async () => {
    const t = on();
    const { token } = await obtainToken(t.app, await getHarness());
    expect((await t.grants.findToken(token))).not.toBeNull();
  });
});
