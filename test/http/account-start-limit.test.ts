// Provider sign-ins started from /account are bounded like GET /oauth/authorize (docs/owner.md §7):
// each stores a flow row for 10 minutes, so past the authorize rate of one client address the page
// answers 429 with Retry-After and stores nothing more.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LIMITS } from "../../src/oauth/rate-limits/table.ts";
import type { FakeClient } from "../support/fake-oauth/server.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { testApp } from "../support/app.ts";
import { postForm } from "../oauth/flow.ts";

let h: Harness;
let fake: FakeClient;
let deps: ReturnType<typeof testApp>;

beforeAll(async () => {
  h = await getHarness();
  fake = h.oauth.client({ redirectUris: ["http://localhost/oauth/upstream/callback"], clock: () => deps.clock() });
  const mail = { imap: { host: h.dovecot.host, port: h.dovecot.port, security: "none" as const }, smtp: { host: h.smtp.host, port: h.smtp.port, security: "none" as const } };
  deps = testApp({ baseUrl: "http://localhost", oauth: { microsoft: null, google: null, file: [fake.settings(mail, { id: "fake" })] } });
}, 30_000);

afterAll(async () => {
  await deps?.runtime.close();
});

const flows = async () => Number((await deps.db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM upstream_flows`)[0]!.n);
const token = async () => /name="csrf_token" value="([^"]+)"/.exec(await (await deps.app.handle(new Request("http://localhost/account"))).text())![1]!;

describe("/account: starting provider sign-ins", () => {
  test(`past ${LIMITS.authorize.max} a minute from one address: 429 with Retry-After, no flow row stored`, async () => {
    const csrf = await token();
    for (let i = 0; i < LIMITS.authorize.max; i++) {
      expect((await postForm(deps.app, "/account/sign-in", { csrf_token: csrf, upstream: "fake" })).status).toBe(303);
    }
    expect(await flows()).toBe(LIMITS.authorize.max);
    const refused = await postForm(deps.app, "/account/sign-in", { csrf_token: csrf, upstream: "fake" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Too many sign-ins");
    expect(await flows()).toBe(LIMITS.authorize.max);
  });
});
