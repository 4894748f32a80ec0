// Signing in at an OAuth mail provider (docs/design.md §5), end to end against the fake provider, the
// test Dovecot (oauth2 passdb: XOAUTH2 and OAUTHBEARER) and the SMTP server (XOAUTH2): the form's 303
// to the provider, the consent, the callback's live IMAP login with the token, the MCP code, and tools
// that read and send with it. Then the token's life: renewed once four fifths of it have passed and
// not before, rotation honoured, consent revoked → "reconnect the mailbox" and grants shows it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getHarness, type Harness } from "../support/harness.ts";
import { call, callOk, connectClient, startTestServer, textOf, type TestServer } from "../support/mcp-client.ts";
import type { FakeClient } from "../support/fake-oauth/server.ts";
import { formatGrants } from "../../src/verbs/grants.ts";
import { openForm, REDIRECT, signedInToken, signIn } from "./sign-in-flow.ts";
import { newVerifier } from "./flow.ts";

let h: Harness;
let srv: TestServer;
let fake: FakeClient;
let oauthBearer: FakeClient;
const clock = { now: () => Date.now() };

beforeAll(async () => {
  h = await getHarness();
  const mail = { imap: { host: "localhost", port: h.dovecot.port, security: "none" as const }, smtp: { host: "localhost", port: h.smtp.port, security: "none" as const } };
  fake = h.oauth.client({ redirectUris: [], clock: () => clock.now(), accessTtlS: 10 });
  oauthBearer = h.oauth.client({ redirectUris: [], clock: () => clock.now() });
  const file = [fake.settings(mail), oauthBearer.settings(mail, { id: "bearer", name: "Bearer Mail", sasl: "oauthbearer", addressFrom: "userinfo" })];
  srv = await startTestServer({ config: { oauth: { microsoft: null, google: null, file } } });
  for (const c of [fake, oauthBearer]) c.options.redirectUris.push(`${srv.baseUrl}/oauth/upstream/callback`);
  clock.now = () => srv.deps.clock();
}, 30_000);

afterAll(async () => {
  await srv?.stop();
});

const id = () => fake.settings({ imap: { host: "", port: 1, security: "none" }, smtp: { host: "", port: 1, security: "none" } }).id;

describe("signing in at an OAuth provider", () => {
  test("the send policy chosen on the form survives the round trip to the provider", async () => {
    const token = await signedInToken(srv.baseUrl, id(), { form: { send: "always" } });
    const record = await srv.deps.grants.findToken(token);
    expect(await srv.deps.grants.sendPolicy(record!.grantId)).toBe("always");
    const refused = await signIn(srv.baseUrl, id(), { form: { send: "sometimes" } }).catch((e: Error) => e.message);
    expect(String(refused)).toContain("Choose when the app may send email");
  });

  test("send_as and signature on the form are stored for the signed-in mailbox; a malformed one is refused before the provider", async () => {
    const token = await signedInToken(srv.baseUrl, id(), { form: { send_as: "Alice at Work <alice@work.example>", signature: "Alice" } });
    const record = await srv.deps.grants.findToken(token);
    expect(await srv.deps.store.identities.forGrant(record!.grantId)).toEqual({ sendAs: [{ name: "Alice at Work", address: "alice@work.example", signature: null }], signature: "Alice" });
    const refused = await signIn(srv.baseUrl, id(), { form: { send_as: "not an address" } }).catch((e: Error) => e.message);
    expect(String(refused)).toMatch(/connect answered 400/);
  });

  test("the form offers it; the 303 to the provider carries PKCE S256, our state, the callback, the login hint, and a cookie", async () => {
    const { html } = await openForm(srv.baseUrl, newVerifier());
    expect(html).toContain("Sign in with Fake Mail");
    const { toProvider, cookie, res } = await signIn(srv.baseUrl, id(), { form: { email: "alice@example.test" } });
    const q = toProvider.searchParams;
    expect(`${toProvider.origin}${toProvider.pathname}`).toBe(`${h.oauth.url}/authorize`);
    expect(q.get("response_type")).toBe("code");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("state")).toMatch(/^[0-9a-f]{64}$/);
    expect(q.get("redirect_uri")).toBe(`${srv.baseUrl}/oauth/upstream/callback`);
    expect(q.get("login_hint")).toBe("alice@example.test");
    expect(q.get("scope")).toBe("mail openid email offline_access");
    expect(cookie).toMatch(/^mailbox_mcp_sign_in=[0-9a-f]{64}$/);
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("state-123");
    expect(back.searchParams.get("iss")).toBe(srv.baseUrl);
    expect(res.headers.get("set-cookie")).toContain("Max-Age=0");
  });

  test("the token reads over IMAP (XOAUTH2) and sends over SMTP (XOAUTH2), the Sent copy included", async () => {
    const token = await signedInToken(srv.baseUrl, id());
    const client = await connectClient(srv.mcpUrl, token);
    try {
      expect((await callOk<{ mailboxes: { path: string }[] }>(client, "list_mailboxes")).mailboxes.map((m) => m.path)).toContain("INBOX");
      const subject = `signed in ${Date.now()}`;
      const sent = await callOk<{ saved_to: string | null }>(client, "send_email", { to: "bob@example.test", subject, text: "hello" });
      expect(sent.saved_to).toBe("Sent");
      expect(h.smtp.messages.at(-1)?.user).toBe("alice@example.test");
      const copies = await callOk<{ total: number }>(client, "search_emails", { folder: "Sent", subject });
      expect(copies.total).toBe(1);
    } finally {
      await client.close();
    }
  });

  test("OAUTHBEARER where the provider is configured for it, the address from userinfo", async () => {
    const token = await signedInToken(srv.baseUrl, "bearer", { login: "bob@example.test" });
    const client = await connectClient(srv.mcpUrl, token);
    try {
      expect((await callOk<{ emails: unknown[] }>(client, "get_recent_emails", { limit: 1 })).emails).toBeArray();
    } finally {
      await client.close();
    }
    const grants = await srv.deps.store.admin.list();
    expect(grants[0]!.label).toEqual({ email: "bob@example.test", host: "localhost", signIn: "Bearer Mail" });
  });
});

describe("a mailbox whose provider stops accepting its token", () => {
  test("IMAP and SMTP refusing a signed-in mailbox say so in words for a sign-in, not a password", async () => {
    const token = await signedInToken(srv.baseUrl, id(), { login: "bob@example.test" });
    const client = await connectClient(srv.mcpUrl, token);
    await callOk(client, "get_recent_emails", { limit: 1 }); // IMAP logged in already; SMTP not yet
    h.oauth.imapDisabled.add("bob@example.test"); // the provider's introspection now answers inactive
    try {
      const sent = await call(client, "send_email", { to: "alice@example.test", subject: "refused", text: "x" });
      expect(textOf(sent)).toContain("refused this mailbox's sign-in token");
      expect(textOf(sent)).toContain("Authenticated SMTP");
      srv.deps.imap.closeAll();
      const read = await call(client, "get_recent_emails", { limit: 1 });
      expect(read.isError).toBe(true);
      expect(textOf(read)).toContain("The mail server refused this mailbox's sign-in token");
      expect(textOf(read)).not.toContain("password");
    } finally {
      h.oauth.imapDisabled.delete("bob@example.test");
      await client.close();
    }
  });
});

describe("the access token's life (it lives 10 s here)", () => {
  test("renewed once 8 s have passed, not before; rotation honoured; the renewed token opens IMAP after the old one expired", async () => {
    const before = { ...fake.counts };
    const token = await signedInToken(srv.baseUrl, id());
    const client = await connectClient(srv.mcpUrl, token);
    const send = () => callOk(client, "send_email", { to: "bob@example.test", subject: "tick", text: "x" });
    const refreshes = () => fake.counts.refreshes - before.refreshes;
    try {
      await send();
      srv.deps.clock.advance(7_000);
      await send(); // a call in between: no renewal
      expect(refreshes()).toBe(0);
      srv.deps.clock.advance(1_500); // 8.5 s: due
      await send();
      expect(refreshes()).toBe(1);
      srv.deps.clock.advance(3_000); // 11.5 s: the first access token has expired at the provider
      srv.deps.imap.closeAll(); // the next read logs in again, with the renewed token
      await callOk(client, "get_recent_emails", { limit: 1 });
      await send();
      expect(refreshes()).toBe(1);
      srv.deps.clock.advance(6_000); // past the renewed token's 8 s: renewed again with the rotated refresh token
      await send();
      expect(refreshes()).toBe(2);
      // A restart forgets the cache: the rotated refresh token comes from the store.
      srv.deps.runtime.mail.credentials.forgetAll();
      srv.deps.clock.advance(9_000);
      await send();
      expect(refreshes()).toBe(3);
      expect(fake.counts.replays).toBe(before.replays); // never a rotated-out refresh token
    } finally {
      await client.close();
    }
  });

  test("calls arriving together when the token is due share one renewal (SQLite: one process)", async () => {
    const token = await signedInToken(srv.baseUrl, id());
    const client = await connectClient(srv.mcpUrl, token);
    try {
      await callOk(client, "send_email", { to: "bob@example.test", subject: "warm", text: "x" });
      const before = fake.counts.refreshAttempts;
      srv.deps.clock.advance(9_000);
      await Promise.all([1, 2, 3].map((i) => callOk(client, "send_email", { to: "bob@example.test", subject: `together ${i}`, text: "x" })));
      expect(fake.counts.refreshAttempts - before).toBe(1);
    } finally {
      await client.close();
    }
  });

  test("the provider failing for a moment: the token still works meanwhile, and the renewal is tried again later, not on every call", async () => {
    const token = await signedInToken(srv.baseUrl, id());
    const client = await connectClient(srv.mcpUrl, token);
    const send = () => callOk(client, "send_email", { to: "bob@example.test", subject: "flaky", text: "x" });
    try {
      await send();
      const before = fake.counts.refreshAttempts;
      const renewed = fake.counts.refreshes;
      srv.deps.clock.advance(8_500);
      fake.tokenError = { error: "temporarily_unavailable", description: "try later", status: 503 };
      await send(); // renewal failed; the token has 1.5 s left: used
      await send(); // not retried at once
      expect(fake.counts.refreshAttempts - before).toBe(1);
      srv.deps.clock.advance(1_000); // half the time that was left, but at least a second
      await send();
      expect(fake.counts.refreshAttempts - before).toBe(2);
      expect(fake.counts.refreshes - renewed).toBe(1); // the retry renewed it
    } finally {
      await client.close();
    }
  });

  test("consent revoked at the provider: the tools say to reconnect, grants shows it, the provider is not asked again", async () => {
    const token = await signedInToken(srv.baseUrl, id(), { login: "bob@example.test" });
    const client = await connectClient(srv.mcpUrl, token);
    try {
      await callOk(client, "send_email", { to: "alice@example.test", subject: "before", text: "x" });
      h.oauth.revokeUser("bob@example.test");
      srv.deps.clock.advance(9_000);
      const attempts = fake.counts.refreshAttempts;
      const res = await call(client, "send_email", { to: "alice@example.test", subject: "after", text: "x" });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toContain("The sign-in at Fake Mail expired or was revoked: reconnect the mailbox.");
      expect(fake.counts.refreshAttempts).toBe(attempts + 1);
      const again = await call(client, "send_email", { to: "alice@example.test", subject: "after", text: "x" });
      expect(textOf(again)).toContain("reconnect the mailbox");
      expect(fake.counts.refreshAttempts).toBe(attempts + 1);
      const lost = (await srv.deps.store.admin.list()).find((g) => g.label?.email === "bob@example.test" && g.signInLostAt !== null);
      expect(lost).toBeDefined();
      expect(formatGrants([lost!], srv.deps.config)).toContain("the sign-in at Fake Mail expired or was revoked; the app must reconnect the mailbox");
    } finally {
      await client.close();
    }
  });
});
