// POST /oauth/connect against the harness Dovecot: success, login failures, CSRF, expiry, limits.
import { describe, expect, test } from "bun:test";
import { freePort } from "../support/dovecot.ts";
import { getHarness } from "../support/harness.ts";
import { createServer } from "node:net";
import { verifyLogin } from "../../src/mail/imap/verify.ts";
import { testApp, testDeps } from "../support/app.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, REDIRECT, type Handler } from "../oauth/flow.ts";

async function start(app: Handler, query: Record<string, string | null> = {}) {
  const res = await authorize(app, authorizeQuery(newVerifier(), query));
  expect(res.status).toBe(200);
  return formIds(await res.text());
}

const connect = (app: Handler, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  postForm(app, "/oauth/connect", fields, headers);

describe("POST /oauth/connect", () => {
  test("right password: 303 to redirect_uri with a 48-character code and the unchanged state", async () => {
    const h = await getHarness();
    const { app } = testApp();
    const state = "st ate/with?odd&chars=<>";
    const ids = await start(app, { state });
    const res = await connect(app, aliceFields(h, ids), { origin: "null" }); // Chromium sends Origin: null
    expect(res.status).toBe(303);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const location = new URL(res.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get("code")).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(location.searchParams.get("state")).toBe(state);
    expect(location.searchParams.get("iss")).toBe("http://localhost"); // RFC 9207 §2: the issuer, byte for byte
  });

  test("the request is single-use: a second submit finds it gone", async () => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = await start(app);
    expect((await connect(app, aliceFields(h, ids))).status).toBe(303);
    const again = await connect(app, aliceFields(h, ids));
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("expired");
  });

  test("an existing query on the redirect_uri is kept", async () => {
    const h = await getHarness();
    const uri = "http://localhost:6274/oauth/callback?tenant=a";
    const { app } = testApp({ extraRedirectUris: [uri] });
    const ids = await start(app, { redirect_uri: uri });
    const location = new URL((await connect(app, aliceFields(h, ids))).headers.get("location")!);
    expect(location.searchParams.get("tenant")).toBe("a");
    expect(location.searchParams.get("code")).toHaveLength(48);
    expect(location.searchParams.get("state")).toBe("state-123");
  });

  test("wrong password: 401 form with the message, email and provider kept, password not echoed", async () => {
    const h = await getHarness();
    const { app, log } = testApp();
    const ids = await start(app);
    const wrong = "Wr0ng-Pa55word-zzz";
    const res = await connect(app, aliceFields(h, ids, { password: wrong }));
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain("rejected the email address or password");
    expect(html).toContain(`value="${h.dovecot.users.alice.email}"`);
    expect(html).toMatch(/<option value="custom" selected/);
    expect(html).toContain(`value="${h.dovecot.port}"`);
    expect(html).not.toContain(wrong);
    expect(html).not.toContain(h.dovecot.users.alice.pass);
    // The same request stays usable after a failed login.
    expect((await connect(app, aliceFields(h, formIds(html)))).status).toBe(303);
    expect(log.lines.join("\n")).not.toContain(wrong);
    expect(log.lines.join("\n")).not.toContain(h.dovecot.users.alice.pass);
  });

  test("CSRF: a wrong or missing token is 403", async () => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = await start(app);
    const wrong = await connect(app, aliceFields(h, { ...ids, csrf_token: "0".repeat(64) }));
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain("could not be verified");
    const { csrf_token: _, ...noCsrf } = aliceFields(h, ids);
    expect((await connect(app, noCsrf)).status).toBe(403);
    // A token from another request does not fit either.
    const other = await start(app);
    expect((await connect(app, aliceFields(h, { request_id: ids.request_id, csrf_token: other.csrf_token }))).status).toBe(403);
  });

  test("unknown or missing request_id: 400 expired page", async () => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = await start(app);
    expect((await connect(app, aliceFields(h, { ...ids, request_id: "f".repeat(64) }))).status).toBe(400);
    const { request_id: _, ...noId } = aliceFields(h, ids);
    const res = await connect(app, noId);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("expired");
  });

  test.each([
    [{ email: "" }, "email address"],
    [{ provider: "" }, "Choose your email provider"],
    [{ password: "" }, "app password"],
    [{ imap_port: "0" }, "IMAP port"],
    [{ smtp_security: "ssl" }, "SMTP security"],
  ])("bad or missing fields: 400 form with a message %#", async (overrides, message) => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = await start(app);
    const res = await connect(app, aliceFields(h, ids, overrides));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
  });

  test("XSS: an email with markup is escaped when the form is re-rendered", async () => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = await start(app);
    const res = await connect(app, aliceFields(h, ids, { email: `"><script>alert(1)</script>@x.test` }));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x.test"');
  });

  test("a control character in the email: 400 form with the reason, no login tried", async () => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = await start(app);
    const res = await connect(app, aliceFields(h, ids, { email: `${h.dovecot.users.alice.email}\u0001` }));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The email address contains a control character");
    expect(html).toContain('name="csrf_token"');
  });

  test("mail server unreachable: 502 with the message", async () => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = await start(app);
    const res = await connect(app, aliceFields(h, ids, { imap_port: String(await freePort()) }));
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("could not be reached");
  });

  test("refused and silent ports: the same 502 form and message (the form is no port-state oracle)", async () => {
    const h = await getHarness();
    // A short budget so the silent port times out quickly; loopback is allowed here (test server),
    // so no uniform timing: that is checked at the function level (test/oauth/verify.test.ts).
    const { app } = testDeps({}, { verifyLogin: (a) => verifyLogin(a, { timeoutMs: 300 }) });
    const silent = createServer(() => {});
    const silentPort = await new Promise<number>((r) => silent.listen(0, "127.0.0.1", () => r((silent.address() as { port: number }).port)));
    try {
      const answers = [];
      for (const port of [await freePort(), silentPort]) {
        const res = await connect(app, aliceFields(h, await start(app), { imap_port: String(port) }));
        const message = /<p[^>]*role="alert"[^>]*>([^<]*)</.exec(await res.text())?.[1] ?? "(no message)";
        answers.push({ status: res.status, message: message.replace(`:${port}`, ":PORT") });
      }
      expect(answers[0]).toEqual(answers[1]!);
      expect(answers[0]!.status).toBe(502);
      expect(answers[0]!.message).toContain("could not be reached or did not answer");
    } finally {
      silent.close();
    }
  });

  test("TLS failure: 502", async () => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = await start(app);
    const res = await connect(app, aliceFields(h, ids, { imap_security: "tls" }));
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("secure (TLS) connection");
  });

  test("private hosts are refused unless allowed", async () => {
    const h = await getHarness();
    const { app } = testApp({ allowPrivateHosts: false });
    const ids = await start(app);
    const tls = { imap_security: "tls", smtp_security: "tls" };
    const res = await connect(app, aliceFields(h, ids, tls));
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("private network");
    expect(text).toContain("MAILBOX_MCP_ALLOW_PRIVATE_HOSTS");
    const literal = await connect(app, aliceFields(h, ids, { ...tls, imap_host: "127.0.0.1" }));
    expect(literal.status).toBe(400);
  });

  test("security none (password in clear) is refused unless private hosts are allowed", async () => {
    const h = await getHarness();
    const { app } = testApp({ allowPrivateHosts: false });
    const ids = await start(app);
    for (const overrides of [{ imap_security: "none", smtp_security: "tls" }, { imap_security: "tls", smtp_security: "none" }]) {
      const res = await connect(app, aliceFields(h, ids, { ...overrides, imap_host: "imap.example.com", smtp_host: "smtp.example.com" }));
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("in clear");
    }
  });

  test("security none with private hosts allowed: only towards private or loopback addresses", async () => {
    const h = await getHarness();
    const { app } = testApp({ allowPrivateHosts: true });
    const ids = await start(app);
    // IP literals: refused before any connection, no DNS needed.
    const cases: Record<string, string>[] = [{ imap_host: "8.8.8.8" }, { smtp_host: "8.8.8.8" }, { imap_host: "[2606:4700:4700::1111]" }, { smtp_host: "100.64.0.1" }];
    for (const overrides of cases) {
      const res = await connect(app, aliceFields(h, ids, overrides));
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(text).toContain("in clear");
      expect(text).toContain("own network");
    }
    // Plain text to the harness on loopback still connects.
    expect((await connect(app, aliceFields(h, ids))).status).toBe(303);
  });

  test("rate limit: the 6th attempt after 5 failed logins is 429 with Retry-After, even with the right password", async () => {
    const h = await getHarness();
    const { app, clock } = testApp();
    const ids = await start(app);
    for (let i = 0; i < 5; i++) {
      const res = await connect(app, aliceFields(h, ids, { password: `wrong-${i}` }));
      expect(res.status).toBe(401);
      clock.advance(1000);
    }
    const blocked = await connect(app, aliceFields(h, ids));
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    const html = await blocked.text();
    expect(html).toContain("Too many sign-in attempts");
    expect(html).toContain(`value="${h.dovecot.users.alice.email}"`);
    // A fresh request does not reset the limit; waiting does.
    const fresh = await start(app);
    expect((await connect(app, aliceFields(h, fresh))).status).toBe(429);
    clock.advance(retryAfter * 1000); // the pending request (10 min) has expired meanwhile: start again
    expect((await connect(app, aliceFields(h, await start(app)))).status).toBe(303);
  });

  test("only failed logins count: unreachable servers and bad fields do not", async () => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = await start(app);
    const closed = String(await freePort());
    for (let i = 0; i < 6; i++) {
      expect((await connect(app, aliceFields(h, ids, { imap_port: closed }))).status).toBe(502);
      expect((await connect(app, aliceFields(h, ids, { email: "nope" }))).status).toBe(400);
    }
    expect((await connect(app, aliceFields(h, ids))).status).toBe(303);
  });
});
