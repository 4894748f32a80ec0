// Every way a sign-in at an OAuth provider can fail comes back on the setup form (or an error page
// when there is no form to show), in words a person can act on, and never as a redirect to the MCP
// client (docs/design.md §5; docs/oauth-providers.md §4): consent declined, an account outside the
// tenant, IMAP turned off, the app refused at the token endpoint, the provider unreachable, a callback
// in another browser, an unknown or replayed state, an expired request, a mailbox the owner has not
// listed in MAILBOX_MCP_ALLOWED_MAILBOXES. After a failure the form works.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getHarness, type Harness } from "../support/harness.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";
import type { FakeClient } from "../support/fake-oauth/server.ts";
import { formIds, newVerifier, REDIRECT, tokenFields } from "./flow.ts";
import { formAgain, openForm, signIn } from "./sign-in-flow.ts";
import { parseAllowedMailboxes, type AllowedMailboxes } from "../../src/allowed-mailboxes.ts";

let h: Harness;
let srv: TestServer;
let fake: FakeClient;
const clock = { now: () => Date.now() };

beforeAll(async () => {
  h = await getHarness();
  const mail = { imap: { host: "localhost", port: h.dovecot.port, security: "none" as const }, smtp: { host: "localhost", port: h.smtp.port, security: "none" as const } };
  fake = h.oauth.client({ redirectUris: [], clock: () => clock.now() });
  const file = [
    fake.settings(mail, { id: "fake" }),
    // The same client, but its token endpoint is a closed port.
    fake.settings(mail, { id: "gone", name: "Gone Mail", tokenEndpoint: "http://127.0.0.1:9/token" }),
  ];
  // Only Alice's mailbox may be connected here (MAILBOX_MCP_ALLOWED_MAILBOXES, issue 19).
  const allowedMailboxes = parseAllowedMailboxes("alice@example.test") as AllowedMailboxes;
  srv = await startTestServer({ config: { oauth: { microsoft: null, google: null, file }, allowedMailboxes } });
  fake.options.redirectUris.push(`${srv.baseUrl}/oauth/upstream/callback`);
  clock.now = () => srv.deps.clock();
}, 30_000);

afterAll(async () => {
  await srv?.stop();
});

describe("failures back on the form", () => {
  test("consent declined at the provider → 401, and the form works again afterwards", async () => {
    const r = await signIn(srv.baseUrl, "fake", { decision: "decline" });
    const { message, html } = await formAgain(r, 401);
    expect(message).toContain("You declined the permissions at Fake Mail");
    expect(message).toContain("AADSTS65004");
    // The same pending request signs in on the second try.
    const ids = formIds(html);
    const again = await fetch(`${srv.baseUrl}/oauth/connect`, {
      method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...ids, provider: "fake" }),
    });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toStartWith(`${h.oauth.url}/authorize?`);
  });

  test("an account outside the app's tenant (AADSTS50020) → 401 in words", async () => {
    fake.authorizeError = { error: "invalid_request", description: "AADSTS50020: User account 'x@hotmail.com' from identity provider 'live.com' does not exist in tenant 'Contoso'.\r\nTrace ID: 1" };
    const { message } = await formAgain(await signIn(srv.baseUrl, "fake"), 401);
    expect(message).toContain("does not belong to the organisation (tenant)");
    expect(message).not.toContain("Trace ID");
  });

  test("a provider error without an AADSTS number: its own words, quoted", async () => {
    fake.authorizeError = { error: "server_error", description: "maintenance <b>window</b>" };
    const r = await signIn(srv.baseUrl, "fake");
    const { html, message } = await formAgain(r, 502);
    expect(message).toContain("could not complete the sign-in just now");
    expect(message).toContain("Fake Mail said: “maintenance <b>window</b>”");
    expect(html).not.toContain("<b>window"); // escaped on the page
  });

  test("IMAP turned off for the mailbox: signed in, but the IMAP login is refused → 401 with what to do", async () => {
    h.oauth.imapDisabled.add("alice@example.test");
    try {
      const { message } = await formAgain(await signIn(srv.baseUrl, "fake"), 401);
      expect(message).toContain("Fake Mail signed you in as alice@example.test, but its mail server refused the IMAP login");
      expect(message).toContain("Check that IMAP is allowed");
    } finally {
      h.oauth.imapDisabled.delete("alice@example.test");
    }
  });

  test("a mailbox not on MAILBOX_MCP_ALLOWED_MAILBOXES: refused after the login proved whose it is → 403, no code", async () => {
    const grants = (await srv.deps.store.admin.list()).length;
    const { message } = await formAgain(await signIn(srv.baseUrl, "fake", { login: "bob@example.test" }), 403);
    expect(message).toContain("accepted the login bob@example.test, but this server only connects the mailboxes its owner has listed");
    expect((await srv.deps.store.admin.list()).length).toBe(grants);
  });

  test("an ID token naming the mailbox with a control character → 502 in words, no grant; no fallback to another claim", async () => {
    const grants = (await srv.deps.store.admin.list()).length;
    for (const email of ["alice@example.test\r\nX-Injected: 1", "ali\u0001ce@example.test", "alice@example.test\u202e"]) {
      fake.idTokenClaims = { email };
      try {
        const { message } = await formAgain(await signIn(srv.baseUrl, "fake"), 502);
        expect(message).toContain("Fake Mail named the mailbox you signed in to with a control character");
      } finally {
        fake.idTokenClaims = {};
      }
    }
    expect((await srv.deps.store.admin.list()).length).toBe(grants);
  });

  test("a typed email or login name with a control character → 400 on the form before the provider is asked", async () => {
    for (const form of [{ email: "alice@example.test\u0000" }, { username: "alice\tx" }] as Record<string, string>[]) {
      const { ids } = await openForm(srv.baseUrl, newVerifier());
      const res = await fetch(`${srv.baseUrl}/oauth/connect`, {
        method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...ids, provider: "fake", ...form }),
      });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain("contains a control character");
    }
  });

  test("the app refused at the token endpoint (a bad client secret) → 502 for whoever runs the server", async () => {
    fake.tokenError = { error: "invalid_client", description: "AADSTS7000215: Invalid client secret provided.", status: 401 };
    const { message } = await formAgain(await signIn(srv.baseUrl, "fake"), 502);
    expect(message).toContain("Microsoft refused this server's client secret"); // the AADSTS number names it
  });

  test("the provider's token endpoint unreachable → 502", async () => {
    const { message } = await formAgain(await signIn(srv.baseUrl, "gone"), 502);
    expect(message).toContain("Gone Mail could not be reached");
  });

  test("read-only chosen on the form survives the trip to the provider", async () => {
    const r = await signIn(srv.baseUrl, "fake", { form: { access: "read" } });
    expect(r.res.status).toBe(303);
    const code = new URL(r.res.headers.get("location")!).searchParams.get("code")!;
    const tok = await fetch(`${srv.baseUrl}/oauth/token`, { method: "POST", body: new URLSearchParams(tokenFields(code, r.verifier)) });
    expect(((await tok.json()) as { scope: string }).scope).toBe("email:read");
  });
});

describe("callbacks that cannot be finished", () => {
  test("in another browser (no cookie) → 403 page; the browser that started it can still finish", async () => {
    const r = await signIn(srv.baseUrl, "fake", { cookie: null });
    expect(r.res.status).toBe(403);
    expect(await r.res.text()).toContain("started in another browser");
    const wrong = await fetch(r.callback, { redirect: "manual", headers: { cookie: `mailbox_mcp_sign_in=${"0".repeat(64)}` } });
    expect(wrong.status).toBe(403);
    const right = await fetch(r.callback, { redirect: "manual", headers: { cookie: r.cookie } });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toStartWith(`${REDIRECT}?`);
  });

  test("a used or unknown state → 400 page, nothing redirected", async () => {
    const r = await signIn(srv.baseUrl, "fake");
    expect(r.res.status).toBe(303);
    const replay = await fetch(r.callback, { redirect: "manual", headers: { cookie: r.cookie } });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("expired or was already used");
    const unknown = await fetch(`${srv.baseUrl}/oauth/upstream/callback?state=${"a".repeat(64)}&code=x`, { redirect: "manual", headers: { cookie: r.cookie } });
    expect(unknown.status).toBe(400);
    const repeated = await fetch(`${r.callback}&state=again`, { redirect: "manual", headers: { cookie: r.cookie } });
    expect(repeated.status).toBe(400);
  });

  test("the setup request expired while the person was at the provider → 400 page", async () => {
    const started = await signIn(srv.baseUrl, "fake", { cookie: null }); // consent given, callback not yet taken
    srv.deps.clock.advance(11 * 60_000);
    const late = await fetch(started.callback, { redirect: "manual", headers: { cookie: started.cookie } });
    expect(late.status).toBe(400);
    expect(late.headers.get("location")).toBeNull();
  });
});
