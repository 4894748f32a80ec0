// docs/design.md §4: after a flow, neither the database rows (SQLite and Postgres) nor the SQLite files on
// disk hold the mailbox password, the access token, the code, the pending request id or the CSRF token
// in clear; nor, after a failed login, the mailbox address (rate-limit keys are keyed hashes); nor, after
// a sign-in at an OAuth provider, its access and refresh tokens (rotated ones included), the state or
// the sign-in cookie (docs/oauth-providers.md §3, §6).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../src/store/db.ts";
import { purgeExpired } from "../../src/oauth/rate-limits/purge.ts";
import { migrate } from "../../src/store/schema.ts";
import { storesOver } from "../../src/store/store.ts";
import { LOOPBACK, registerOk } from "./register-flow.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { testApp } from "../support/app.ts";
import { BACKENDS, closeStoresAfterEach, countRows, dumpStore } from "../support/stores.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, tokenFields, type Handler } from "./flow.ts";
import { signedInToken, signIn } from "./sign-in-flow.ts";
import type { Db } from "../../src/store/db.ts";
import { serve } from "../../src/http/serve.ts";
import { silentLogger } from "../../src/log.ts";
import { testDeps } from "../support/app.ts";
import { callOk, connectClient } from "../support/mcp-client.ts";
import { freePort } from "../support/ports.ts";

/** Runs one full flow and one flow stopped at the code; returns every secret that passed by. */
async function flows(app: Handler, h: Harness): Promise<string[]> {
  const secrets = [h.dovecot.users.alice.pass];
  for (const exchange of [true, false]) {
    const verifier = newVerifier();
    const ids = formIds(await (await authorize(app, authorizeQuery(verifier))).text());
    const res = await postForm(app, "/oauth/connect", aliceFields(h, ids));
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    secrets.push(ids.request_id, ids.csrf_token, code, verifier);
    if (!exchange) continue;
    const tok = (await (await postForm(app, "/oauth/token", tokenFields(code, verifier))).json()) as { access_token: string };
    secrets.push(tok.access_token);
  }
  // A pending request that never completes.
  secrets.push(...Object.values(formIds(await (await authorize(app, authorizeQuery(newVerifier()))).text())));
  return secrets;
}

/**
 * On a listening server over `db`: one sign-in at the fake provider through to a renewal with a
 * rotated refresh token, and one left waiting at the provider. Returns every secret that passed by.
 */
async function signInFlows(h: Harness, db: Db): Promise<string[]> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const fake = h.oauth.client({ redirectUris: [`${base}/oauth/upstream/callback`], accessTtlS: 10, clock: () => deps.clock() });
  const mail = { imap: { host: "localhost", port: h.dovecot.port, security: "none" as const }, smtp: { host: "localhost", port: h.smtp.port, security: "none" as const } };
  const deps = testDeps({ baseUrl: base, oauth: { microsoft: null, google: null, file: [fake.settings(mail, { id: "fake" })] } }, { makeStore: (key, clock) => storesOver(db, key, clock) });
  const server = serve(deps.app, { hostname: "127.0.0.1", port, log: silentLogger });
  const before = new Set(h.oauth.issued());
  try {
    const token = await signedInToken(base, "fake");
    const client = await connectClient(`${base}/mcp`, token);
    await callOk(client, "send_email", { to: "bob@example.test", subject: "at rest", text: "x" });
    deps.clock.advance(9_000);
    await callOk(client, "send_email", { to: "bob@example.test", subject: "at rest, renewed", text: "x" });
    await client.close();
    expect(fake.counts.refreshes).toBe(1);
    const waiting = await signIn(base, "fake", { cookie: null }); // its flow row stays: in another browser
    const issued = h.oauth.issued().filter((t) => !before.has(t));
    expect(issued.length).toBe(4); // the sign-in and the renewal: an access and a refresh token each
    const state = waiting.toProvider.searchParams.get("state")!;
    return [...issued, token, state, waiting.cookie.split("=")[1]!];
  } finally {
    await deps.runtime.close();
    await server.stop(true);
  }
}

function expectAbsent(haystack: string, secrets: string[]) {
  for (const s of secrets) {
    expect(haystack.includes(s)).toBe(false);
    expect(haystack.includes(Buffer.from(s).toString("base64"))).toBe(false);
  }
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

closeStoresAfterEach();

describe("nothing secret at rest", () => {
  for (const backend of BACKENDS) {
    test(`${backend.name}: no row holds a password, token, code, request id, CSRF token or mailbox address`, async () => {
      const h = await getHarness();
      const db = await backend.open();
      const { app, log } = testApp({}, { makeStore: (key, clock) => storesOver(db, key, clock) });
      const secrets = await flows(app, h);
      // A failed login too: the rate-limit events must not name the mailbox either.
      const ids = formIds(await (await authorize(app, authorizeQuery(newVerifier()))).text());
      expect((await postForm(app, "/oauth/connect", { ...aliceFields(h, ids), password: "wrong-password" })).status).toBe(401);
      const all = await dumpStore(db);
      expect(await countRows(db, "tokens")).toBe(1);
      expect(await countRows(db, "codes")).toBe(2);
      expect(await countRows(db, "limit_events")).toBeGreaterThan(0);
      expect(all.length).toBeGreaterThan(0);
      expectAbsent(all, [...secrets, h.dovecot.users.alice.email, h.dovecot.users.alice.user]);
      expectAbsent(log.lines.join("\n"), secrets);
    });
  }

  for (const backend of BACKENDS) {
    test(`${backend.name}: several mailboxes: neither password in clear, while the page waits for the next mailbox nor after`, async () => {
      const h = await getHarness();
      const db = await backend.open();
      const { app } = testApp({}, { makeStore: (key, clock) => storesOver(db, key, clock) });
      const { alice, bob } = h.dovecot.users;
      const verifier = newVerifier();
      const ids = formIds(await (await authorize(app, authorizeQuery(verifier))).text());
      expect((await postForm(app, "/oauth/connect", { ...aliceFields(h, ids), another: "1" })).status).toBe(200);
      const waiting = await dumpStore(db);
      const [kept] = await db.q<{ n: unknown }>`SELECT COUNT(*) AS n FROM pending_requests WHERE sealed_mailboxes IS NOT NULL`;
      expect(Number(kept!.n)).toBe(1); // alice is kept with the request, sealed
      expectAbsent(waiting, [alice.pass, ids.request_id, ids.csrf_token]);
      const bobFields = aliceFields(h, ids, { email: bob.email, password: bob.pass, username: bob.user });
      const res = await postForm(app, "/oauth/connect", bobFields);
      expect(res.status).toBe(303);
      const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
      const tok = (await (await postForm(app, "/oauth/token", tokenFields(code, verifier))).json()) as { access_token: string };
      expect(await countRows(db, "tokens")).toBe(1);
      const all = await dumpStore(db);
      expectAbsent(all, [alice.pass, bob.pass, code, tok.access_token, ids.request_id, alice.email, bob.email]);
    });
  }

  test("file-backed store: the db, -wal and -shm files never contain them", async () => {
    const h = await getHarness();
    const dir = mkdtempSync(join(tmpdir(), "mailbox-mcp-at-rest-"));
    dirs.push(dir);
    const db = await openSqlite(join(dir, "store.db"));
    await migrate(db);
    const { app } = testApp({}, { makeStore: (key, clock) => storesOver(db, key, clock) });
    const secrets = await flows(app, h);
    const files = readdirSync(dir);
    expect(files).toContain("store.db-wal");
    for (const f of files) expectAbsent(readFileSync(join(dir, f)).toString("latin1"), secrets);
    await db.q`PRAGMA wal_checkpoint(TRUNCATE)`;
    for (const f of readdirSync(dir)) expectAbsent(readFileSync(join(dir, f)).toString("latin1"), secrets);
    await db.close();
  });

  test("open registration: a registered client's secret is never in the file either", async () => {
    const h = await getHarness();
    const dir = mkdtempSync(join(tmpdir(), "mailbox-mcp-at-rest-"));
    dirs.push(dir);
    const db = await openSqlite(join(dir, "store.db"));
    await migrate(db);
    const { app } = testApp({ openRegistration: true }, { makeStore: (key, clock) => storesOver(db, key, clock) });
    const client = await registerOk(app, { token_endpoint_auth_method: "client_secret_post" });
    const verifier = newVerifier();
    const query = authorizeQuery(verifier, { client_id: client.client_id, redirect_uri: LOOPBACK });
    const ids = formIds(await (await authorize(app, query)).text());
    const res = await postForm(app, "/oauth/connect", aliceFields(h, ids));
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    const fields = tokenFields(code, verifier, { client_id: client.client_id, client_secret: client.client_secret!, redirect_uri: LOOPBACK });
    const tok = (await (await postForm(app, "/oauth/token", fields)).json()) as { access_token: string };
    const secrets = [client.client_secret!, h.dovecot.users.alice.pass, code, verifier, tok.access_token, ids.request_id, ids.csrf_token];
    expectAbsent(await dumpStore(db), secrets);
    for (const f of readdirSync(dir)) expectAbsent(readFileSync(join(dir, f)).toString("latin1"), secrets);
    await db.q`PRAGMA wal_checkpoint(TRUNCATE)`;
    for (const f of readdirSync(dir)) expectAbsent(readFileSync(join(dir, f)).toString("latin1"), secrets);
    await db.close();
  });

  for (const backend of BACKENDS) {
    test(`${backend.name}: a sign-in at an OAuth provider keeps neither of its tokens (nor the rotated ones), its state, verifier or cookie in clear`, async () => {
      const h = await getHarness();
      const db = await backend.open();
      const secrets = await signInFlows(h, db);
      expectAbsent(await dumpStore(db), secrets);
    });
  }

  test("a sign-in at an OAuth provider: the SQLite files never contain its tokens either", async () => {
    const h = await getHarness();
    const dir = mkdtempSync(join(tmpdir(), "mailbox-mcp-at-rest-"));
    dirs.push(dir);
    const db = await openSqlite(join(dir, "store.db"));
    await migrate(db);
    const secrets = await signInFlows(h, db);
    for (const f of readdirSync(dir)) expectAbsent(readFileSync(join(dir, f)).toString("latin1"), secrets);
    await db.q`PRAGMA wal_checkpoint(TRUNCATE)`;
    for (const f of readdirSync(dir)) expectAbsent(readFileSync(join(dir, f)).toString("latin1"), secrets);
    await db.close();
  });

  test("expired codes and tokens are purged by the purge the service runs every minute (clock)", async () => {
    const h = await getHarness();
    const { app, db, clock, store } = testApp();
    await flows(app, h);
    clock.advance(30 * 24 * 3600_000);
    await authorize(app, authorizeQuery(newVerifier()));
    await purgeExpired(store);
    for (const table of ["tokens", "codes", "grants"] as const) expect(await countRows(db, table)).toBe(0);
    expect(await countRows(db, "pending_requests")).toBe(1);
  });
});
