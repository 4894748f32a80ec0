// RFC 9207 over HTTP (issue 41, item 3): the fake provider, configured with an issuer, puts `iss` on
// its redirect back as a real authorization server does. A callback with a wrong `iss`, with none, or
// with another configured provider's issuer is refused on the sign-in error page (the setup form,
// 400, no code, no grant); the right one signs in.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getHarness } from "../support/harness.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";
import type { FakeClient } from "../support/fake-oauth/server.ts";
import { formAgain, signIn } from "./sign-in-flow.ts";

let srv: TestServer;
let fake: FakeClient;
let issuer: string;
const OTHER = "https://other-issuer.example";

beforeAll(async () => {
  const h = await getHarness();
  const mail = { imap: { host: "localhost", port: h.dovecot.port, security: "none" as const }, smtp: { host: "localhost", port: h.smtp.port, security: "none" as const } };
  fake = h.oauth.client({ redirectUris: [] });
  issuer = h.oauth.url;
  const file = [
    fake.settings(mail, { id: "strict", name: "Strict Mail", issuer }),
    fake.settings(mail, { id: "plain", name: "Plain Mail" }),
    fake.settings(mail, { id: "other", name: "Other Mail", issuer: OTHER }),
  ];
  srv = await startTestServer({ config: { oauth: { microsoft: null, google: null, file } } });
  fake.options.redirectUris.push(`${srv.baseUrl}/oauth/upstream/callback`);
}, 30_000);

afterAll(async () => {
  fake.callbackIss = null;
  await srv?.stop();
});

/** A sign-in at `provider` whose redirect back carries `iss` (or none). */
async function withIss(provider: string, iss: string | null) {
  fake.callbackIss = iss;
  try {
    return await signIn(srv.baseUrl, provider);
  } finally {
    fake.callbackIss = null;
  }
}

async function refused(provider: string, iss: string | null, name: string): Promise<void> {
  const grants = (await srv.deps.store.admin.list()).length;
  const r = await withIss(provider, iss);
  expect(r.callback.searchParams.get("iss")).toBe(iss);
  const { message } = await formAgain(r, 400);
  expect(message).toBe(`The answer that came back is not from ${name}, where this sign-in started. Nothing was stored; sign in again.`);
  expect((await srv.deps.store.admin.list()).length).toBe(grants);
}

describe("the provider sign-in callback's iss", () => {
  test("a provider with an issuer: its own iss signs in (303 with a code)", async () => {
    const r = await withIss("strict", issuer);
    expect(r.res.status).toBe(303);
    expect(new URL(r.res.headers.get("location")!).searchParams.get("code")).toBeTruthy();
  });

  test("a provider with an issuer: a wrong iss, or none, is refused", async () => {
    await refused("strict", "https://evil.example", "Strict Mail");
    await refused("strict", `${issuer}/`, "Strict Mail"); // RFC 9207 §2.4: compared exactly, no normalising
    await refused("strict", null, "Strict Mail");
  });

  test("another configured provider's issuer is refused, whether or not this one declares one", async () => {
    await refused("strict", OTHER, "Strict Mail");
    await refused("plain", OTHER, "Plain Mail");
  });

  test("a provider without an issuer and no iss signs in as before", async () => {
    expect((await withIss("plain", null)).res.status).toBe(303);
  });
});
