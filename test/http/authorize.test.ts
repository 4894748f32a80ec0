// GET /oauth/authorize: each failed check, the JSON/HTML choice, the form, its headers, escaping, expiry.
import { describe, expect, test } from "bun:test";
import { purgeExpired } from "../../src/oauth/rate-limits/purge.ts";
import { testApp } from "../support/app.ts";
import { countRows } from "../support/stores.ts";
import { byOutcome } from "../support/each.ts";
import { authorize, authorizeQuery, formIds, newVerifier, postForm, REDIRECT } from "../oauth/flow.ts";

const verifier = newVerifier();
const JSON_ACCEPT = { accept: "application/json" };

async function jsonError(overrides: Record<string, string | null>) {
  const { app } = testApp();
  const res = await authorize(app, authorizeQuery(verifier, overrides), JSON_ACCEPT);
  return { status: res.status, body: (await res.json()) as { error: string; error_description: string }, res };
}

describe("GET /oauth/authorize failures (never a redirect)", () => {
  test.each(byOutcome([
    ["missing client_id", { client_id: null }, 400, "invalid_request"],
    ["wrong client_id", { client_id: "someone-else" }, 401, "unauthorized_client"],
    ["missing redirect_uri", { redirect_uri: null }, 400, "invalid_request"],
    ["redirect_uri not on the allowlist", { redirect_uri: "https://evil.example/cb" }, 400, "invalid_request"],
    ["redirect_uri with a trailing slash", { redirect_uri: REDIRECT + "/" }, 400, "invalid_request"],
    ["redirect_uri on another port", { redirect_uri: "http://localhost:6275/oauth/callback" }, 400, "invalid_request"],
    ["redirect_uri with https", { redirect_uri: "https://localhost:6274/oauth/callback" }, 400, "invalid_request"],
    ["response_type token", { response_type: "token" }, 400, "unsupported_response_type"],
    ["missing response_type", { response_type: null }, 400, "unsupported_response_type"],
    ["missing code_challenge", { code_challenge: null }, 400, "invalid_request"],
    ["short code_challenge", { code_challenge: "abc" }, 400, "invalid_request"],
    ["code_challenge with padding", { code_challenge: "a".repeat(42) + "=" }, 400, "invalid_request"],
    ["code_challenge_method plain", { code_challenge_method: "plain" }, 400, "invalid_request"],
    ["missing code_challenge_method", { code_challenge_method: null }, 400, "invalid_request"],
    ["missing state", { state: null }, 400, "invalid_request"],
    ["empty state", { state: "" }, 400, "invalid_request"],
    ["unknown scope", { scope: "email:read admin" }, 400, "invalid_scope"],
    ["foreign resource", { resource: "https://other.example/mcp" }, 400, "invalid_target"],
  ]))("%s → %d %s", async (_name, status, error, overrides) => {
    const { status: got, body, res } = await jsonError(overrides);
    expect(got).toBe(status);
    expect(body.error).toBe(error);
    expect(body.error_description).toBeString();
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  test("a repeated parameter is refused (RFC 6749 §3.1)", async () => {
    const { app } = testApp();
    const q = authorizeQuery(verifier);
    q.append("state", "second");
    const res = await authorize(app, q, JSON_ACCEPT);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
  });

  test("HTML error page by default, and when text/html comes first", async () => {
    const { app } = testApp();
    for (const accept of [undefined, "text/html,application/json", "*/*"]) {
      const res = await authorize(app, authorizeQuery(verifier, { client_id: "nope" }), accept ? { accept } : {});
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toStartWith("text/html");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const html = await res.text();
      expect(html).toContain("unauthorized_client");
      expect(html).not.toContain("<form");
    }
  });

  test("the error page escapes what it reflects", async () => {
    const { app } = testApp();
    const res = await authorize(app, authorizeQuery(verifier, { scope: "<script>alert(1)</script>" }));
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain("<script>alert(1)");
  });
});

describe("GET /oauth/authorize success", () => {
  test("stores a pending request and renders the form with hidden ids", async () => {
    const { app } = testApp();
    const res = await authorize(app, authorizeQuery(verifier, { scope: "email:read email:write", resource: "http://localhost/mcp" }));
    expect(res.status).toBe(200);
    const html = await res.text();
    const ids = formIds(html);
    expect(ids.request_id).toMatch(/^[0-9a-f]{64}$/);
    expect(ids.csrf_token).toMatch(/^[0-9a-f]{64}$/);
    expect(html).toContain('action="/oauth/connect"');
    expect(html).toContain('method="post"');
    expect(html).toContain("localhost:6274"); // the app being authorized
    expect(html).toContain('autocomplete="current-password"');
    expect(html).toContain('name="viewport"');
    expect(html).toContain("Connecting…");
    for (const id of ["gmail", "outlook", "yahoo", "icloud", "fastmail", "zoho", "aol", "gmx", "yandex", "mailbox.org", "posteo", "custom"]) {
      expect(html).toContain(`value="${id}"`);
    }
    for (const name of ["provider", "email", "password", "imap_host", "imap_port", "imap_security", "smtp_host", "smtp_port", "smtp_security", "username"]) {
      expect(html).toContain(`<label for="${name}"`);
      expect(html).toContain(`name="${name}"`);
    }
    expect(html).toContain("https://myaccount.google.com/apppasswords");
  });

  test("headers: no-store, CSP with nonce, frame-ancestors none, form-action self + redirect origin", async () => {
    const { app } = testApp();
    const res = await authorize(app, authorizeQuery(verifier));
    expect(res.headers.get("cache-control")).toBe("no-store");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' http://localhost:6274");
    expect(csp).toContain("default-src 'none'");
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    const html = await res.text();
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  test("the hosted client's redirect origin goes into form-action", async () => {
    const { app } = testApp();
    const res = await authorize(app, authorizeQuery(verifier, { redirect_uri: "https://claude.ai/api/mcp/auth_callback" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toMatch(/form-action 'self' https:\/\/claude\.ai(;|$)/);
    expect(await res.text()).toContain("claude.ai");
  });

  test("extra redirect URIs from configuration are allowed, exactly", async () => {
    const { app } = testApp({ extraRedirectUris: ["http://localhost:33418/callback"] });
    expect((await authorize(app, authorizeQuery(verifier, { redirect_uri: "http://localhost:33418/callback" }))).status).toBe(200);
    expect((await authorize(app, authorizeQuery(verifier, { redirect_uri: "http://localhost:33418/callback/" }))).status).toBe(400);
  });

  test("a state with markup is escaped, not reflected raw", async () => {
    const { app, db } = testApp();
    const state = `"><script>alert(1)</script>`;
    const res = await authorize(app, authorizeQuery(verifier, { state }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain("<script>alert(1)");
    // The state is kept server-side only, returned unchanged on the redirect.
    expect([...(await db.q`SELECT state FROM pending_requests`)]).toEqual([{ state }]);
  });

  test("the pending request expires after 10 minutes", async () => {
    const { app, clock } = testApp();
    const ids = formIds(await (await authorize(app, authorizeQuery(verifier))).text());
    clock.advance(10 * 60_000);
    const res = await postForm(app, "/oauth/connect", { ...ids, provider: "gmail", email: "a@b.test", password: "x" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("expired");
  });

  test("expired pending requests are purged by the purge (src/service.ts runs it every minute)", async () => {
    const { app, clock, db, store } = testApp();
    await authorize(app, authorizeQuery(verifier));
    clock.advance(11 * 60_000);
    await authorize(app, authorizeQuery(verifier));
    expect(await countRows(db, "pending_requests")).toBe(2);
    await purgeExpired(store);
    expect(await countRows(db, "pending_requests")).toBe(1);
  });
});
