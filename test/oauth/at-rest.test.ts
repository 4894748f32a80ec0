// DESIGN §4: after a flow, neither the database rows nor the files on disk hold the mailbox password,
// the access token, the code, the pending request id or the CSRF token in clear.
import { afterAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/http/app.ts";
import { openDatabase } from "../../src/store/db.ts";
import { GrantStore } from "../../src/store/grants.ts";
import { ClientRegistry } from "../../src/oauth/clients.ts";
import { CLIENT_IDLE_MS } from "../../src/oauth/registration.ts";
import { ClientStore } from "../../src/store/clients.ts";
import { LOOPBACK, registerOk } from "./register-flow.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { testApp, testDeps } from "../support/app.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, tokenFields, type Handler } from "./flow.ts";

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

function dump(db: Database): string {
  const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
  const parts: string[] = [];
  for (const { name } of tables) {
    for (const row of db.query<Record<string, unknown>, []>(`SELECT * FROM "${name}"`).all()) {
      for (const value of Object.values(row)) {
        parts.push(value instanceof Uint8Array ? Buffer.from(value).toString("latin1") : String(value));
      }
    }
  }
  return parts.join("\n");
}

function expectAbsent(haystack: string, secrets: string[]) {
  for (const s of secrets) {
    expect(haystack.includes(s)).toBe(false);
    expect(haystack.includes(Buffer.from(s).toString("base64"))).toBe(false);
  }
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("nothing secret at rest", () => {
  test("in-memory store: no row holds a password, token, code, request id or CSRF token", async () => {
    const h = await getHarness();
    const { app, db, log } = testApp();
    const secrets = await flows(app, h);
    const all = dump(db);
    expect(db.query("SELECT count(*) AS n FROM tokens").get()).toEqual({ n: 1 });
    expect(db.query("SELECT count(*) AS n FROM codes").get()).toEqual({ n: 2 });
    expect(all.length).toBeGreaterThan(0);
    expectAbsent(all, secrets);
    expectAbsent(log.lines.join("\n"), secrets);
  });

  test("file-backed store: the db, -wal and -shm files never contain them", async () => {
    const h = await getHarness();
    const dir = mkdtempSync(join(tmpdir(), "mailbox-mcp-at-rest-"));
    dirs.push(dir);
    const base = testDeps();
    const db = openDatabase(join(dir, "store.db"));
    const app = createApp({ ...base, grants: new GrantStore(db, base.config.secretKey, base.clock) });
    const secrets = await flows(app, h);
    const files = readdirSync(dir);
    expect(files).toContain("store.db-wal");
    for (const f of files) expectAbsent(readFileSync(join(dir, f)).toString("latin1"), secrets);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    for (const f of readdirSync(dir)) expectAbsent(readFileSync(join(dir, f)).toString("latin1"), secrets);
    db.close();
  });

  test("open registration: a registered client's secret is never in the file either", async () => {
    const h = await getHarness();
    const dir = mkdtempSync(join(tmpdir(), "mailbox-mcp-at-rest-"));
    dirs.push(dir);
    const base = testDeps({ openRegistration: true });
    const db = openDatabase(join(dir, "store.db"));
    const clients = new ClientRegistry(base.config, new ClientStore(db, base.clock, CLIENT_IDLE_MS));
    const app = createApp({ ...base, clients, grants: new GrantStore(db, base.config.secretKey, base.clock) });
    const client = await registerOk(app, { token_endpoint_auth_method: "client_secret_post" });
    const verifier = newVerifier();
    const query = authorizeQuery(verifier, { client_id: client.client_id, redirect_uri: LOOPBACK });
    const ids = formIds(await (await authorize(app, query)).text());
    const res = await postForm(app, "/oauth/connect", aliceFields(h, ids));
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    const fields = tokenFields(code, verifier, { client_id: client.client_id, client_secret: client.client_secret!, redirect_uri: LOOPBACK });
    const tok = (await (await postForm(app, "/oauth/token", fields)).json()) as { access_token: string };
    const secrets = [client.client_secret!, h.dovecot.users.alice.pass, code, verifier, tok.access_token, ids.request_id, ids.csrf_token];
    expectAbsent(dump(db), secrets);
    for (const f of readdirSync(dir)) expectAbsent(readFileSync(join(dir, f)).toString("latin1"), secrets);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    for (const f of readdirSync(dir)) expectAbsent(readFileSync(join(dir, f)).toString("latin1"), secrets);
    db.close();
  });

  test("expired codes and tokens are purged on later OAuth requests (clock)", async () => {
    const h = await getHarness();
    const { app, db, clock } = testApp();
    await flows(app, h);
    clock.advance(30 * 24 * 3600_000);
    await authorize(app, authorizeQuery(newVerifier()));
    for (const table of ["tokens", "codes", "grants"]) {
      expect(db.query(`SELECT count(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
    }
    expect(db.query("SELECT count(*) AS n FROM pending_requests").get()).toEqual({ n: 1 });
  });
});
