// Limits on what an unauthenticated visitor can make the server do at /oauth/authorize and
// /oauth/connect, beyond the failed-login limit (connect.test.ts).
import { describe, expect, test } from "bun:test";
import { MAX_INFLIGHT_LOGINS } from "../../src/oauth/setup/connect.ts";
import { LIMITS } from "../../src/oauth/rate-limits/table.ts";
import { MailError } from "../../src/mail/errors.ts";
import { freePort } from "../support/dovecot.ts";
import { startFakeImap } from "../support/fake-imap.ts";
import { getHarness } from "../support/harness.ts";
import { testApp, testDeps } from "../support/app.ts";
import { until } from "../support/until.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, type Handler } from "../oauth/flow.ts";
import { openForm, signIn } from "../oauth/sign-in-flow.ts";
import { startTestServer } from "../support/mcp-client.ts";
import { verifyLogin } from "../../src/mail/imap/verify.ts";
import type { MailAccount } from "../../src/mail/account.ts";

const CONNECT_LIMIT = LIMITS["connect-failures"];
const ATTEMPT_LIMIT = LIMITS["connect-attempts"];

async function start(app: Handler) {
  const page = await authorize(app, authorizeQuery(newVerifier()));
  expect(page.status).toBe(200);
  return formIds(await page.text());
}

describe("connect attempt limits", () => {
  test(`every mail-server attempt counts: after ${ATTEMPT_LIMIT.max} from one client, 429 even for unreachable hosts`, async () => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = await start(app);
    const closed = String(await freePort());
    for (let i = 0; i < ATTEMPT_LIMIT.max; i++) {
      expect((await postForm(app, "/oauth/connect", aliceFields(h, ids, { imap_port: closed }))).status).toBe(502);
    }
    const res = await postForm(app, "/oauth/connect", aliceFields(h, ids));
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test(`at most ${MAX_INFLIGHT_LOGINS} live checks at once; the next is 503 with Retry-After`, async () => {
    const h = await getHarness();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let checking = 0;
    // Fault injection: a mail server that does not answer until released.
    const { app } = testDeps({ trustProxy: true }, { verifyLogin: async () => { checking++; await gate; throw new MailError("timeout", "slow"); } });
    const ids = await start(app);
    // Each from its own address and login, so only the global bound can refuse them.
    const attempt = (i: number) => postForm(app, "/oauth/connect", aliceFields(h, ids, { email: `u${i}@example.test`, username: `u${i}` }),
      { "x-forwarded-for": `198.51.100.${i}` });
    const stuck = Array.from({ length: MAX_INFLIGHT_LOGINS }, (_, i) => attempt(i));
    await until(() => checking === MAX_INFLIGHT_LOGINS, { what: `${MAX_INFLIGHT_LOGINS} live checks in flight` });
    const busy = await attempt(200);
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("5");
    release();
    expect((await Promise.all(stuck)).map((r) => r.status)).toEqual(Array(MAX_INFLIGHT_LOGINS).fill(502));
  });

  test(`a provider's sign-in callback counts in the same ${MAX_INFLIGHT_LOGINS} live checks as the form`, async () => {
    const h = await getHarness();
    const mail = { imap: { host: "localhost", port: h.dovecot.port, security: "none" as const }, smtp: { host: "localhost", port: h.smtp.port, security: "none" as const } };
    const provider = h.oauth.client({ redirectUris: [], clock: () => Date.now() });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let checking = 0;
    // Password logins hang until released; a sign-in's login (with its token) is the real one.
    const gated = async (account: MailAccount) => {
      if (account.auth.kind !== "password") return verifyLogin(account);
      checking++;
      await gate;
      throw new MailError("timeout", "slow");
    };
    const settings = provider.settings(mail);
    const srv = await startTestServer({ config: { trustProxy: true, oauth: { microsoft: null, google: null, file: [settings] } }, verifyLogin: gated });
    provider.options.redirectUris.push(`${srv.baseUrl}/oauth/upstream/callback`);
    let stuck: Promise<Response>[] = [];
    try {
      const { ids } = await openForm(srv.baseUrl, newVerifier());
      const attempt = (i: number) => fetch(`${srv.baseUrl}/oauth/connect`, {
        method: "POST", redirect: "manual", body: new URLSearchParams(aliceFields(h, ids, { email: `u${i}@example.test`, username: `u${i}` })),
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `198.51.100.${i}` },
      });
      stuck = Array.from({ length: MAX_INFLIGHT_LOGINS }, (_, i) => attempt(i));
      await until(() => checking === MAX_INFLIGHT_LOGINS, { what: `${MAX_INFLIGHT_LOGINS} live checks in flight` });
      // Each door counting on its own let a callback log in as the 17th.
      const { res } = await signIn(srv.baseUrl, settings.id);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.text()).toContain("The server is busy checking other sign-ins");
      release();
      expect((await Promise.all(stuck)).map((r) => r.status)).toEqual(Array(MAX_INFLIGHT_LOGINS).fill(502));
    } finally {
      release();
      await Promise.allSettled(stuck);
      await srv.stop();
    }
  });
});

describe("failed-login limit under concurrency", () => {
  test(`12 concurrent wrong passwords: at most ${CONNECT_LIMIT.max} reach the mail server, the rest are 429`, async () => {
    const fake = await startFakeImap(() => ({ login: "refuse" }));
    try {
      const h = await getHarness();
      const { app } = testApp();
      const ids = await start(app);
      const fields = aliceFields(h, ids, { imap_host: fake.host, imap_port: String(fake.port), password: "wrong" });
      const statuses = (await Promise.all(Array.from({ length: 12 }, () => postForm(app, "/oauth/connect", fields)))).map((r) => r.status);
      expect(fake.connections).toBeLessThanOrEqual(CONNECT_LIMIT.max);
      expect(statuses.filter((s) => s === 401)).toHaveLength(fake.connections);
      expect(statuses.filter((s) => s === 429)).toHaveLength(12 - fake.connections);
    } finally {
      await fake.stop();
    }
  });

  test("a slot held by a login in flight is given back when that login succeeds", async () => {
    const h = await getHarness();
    const { app } = testApp();
    const ids = () => start(app);
    // Five right passwords at once: none fails, so a sixth afterwards is not refused.
    const ok = await Promise.all(Array.from({ length: 5 }, async () => postForm(app, "/oauth/connect", aliceFields(h, await ids()))));
    expect(ok.map((r) => r.status)).toEqual(Array(5).fill(303));
    expect((await postForm(app, "/oauth/connect", aliceFields(h, await ids()))).status).toBe(303);
  });
});
