// The owner's page with two instances on one Postgres (docs/owner.md §7): a connection revoked on
// /account at instance A is refused at once on instance B too (its tokens are gone from the shared
// store; the same path as /oauth/revoke). The page session itself is served by either instance.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openPostgres, type Db } from "../../src/store/db.ts";
import { migrate } from "../../src/store/schema.ts";
import { storesOver } from "../../src/store/store.ts";
import { testDeps } from "../support/app.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { freshDatabaseUrl } from "../support/stores.ts";
import { aliceFields, obtainToken, postForm, type Handler } from "../oauth/flow.ts";

let h: Harness;
const dbs: Db[] = [];
const apps: { app: Handler; close(): Promise<void> }[] = [];

beforeAll(async () => {
  h = await getHarness();
  const url = await freshDatabaseUrl("account");
  for (let i = 0; i < 2; i++) {
    const db = await openPostgres(url);
    if (i === 0) await migrate(db);
    dbs.push(db);
    const deps = testDeps({}, { makeStore: (key, clock) => storesOver(db, key, clock) });
    apps.push({ app: deps.app, close: () => deps.runtime.close() });
  }
}, 60_000);

afterAll(async () => {
  for (const a of apps) await a.close();
  for (const db of dbs) await db.close();
});

const connectAlice = async (app: Handler): Promise<string> => (await obtainToken(app, h, { send: "direct" })).token;

const get = (app: Handler, path: string, cookie: string) => app.handle(new Request(`http://localhost${path}`, { headers: { cookie } }));
const mcpStatus = async (app: Handler, token: string) => (await app.handle(new Request("http://localhost/mcp", {
  method: "POST",
  headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
}))).status;

describe("/account on two instances over Postgres", () => {
  test("revoked on A: the app's next /mcp call is 401 on B too; the other connection still works there", async () => {
    const [a, b] = [apps[0]!.app, apps[1]!.app];
    const kept = await connectAlice(a);
    const revoked = await connectAlice(b);
    expect(await mcpStatus(b, revoked)).toBe(200);

    const signInForm = await (await a.handle(new Request("http://localhost/account"))).text();
    const { request_id: _r, csrf_token: _c, ...fields } = aliceFields(h, { request_id: "", csrf_token: "" });
    const signedIn = await postForm(a, "/account/sign-in", { ...fields, csrf_token: /name="csrf_token" value="([^"]+)"/.exec(signInForm)![1]! });
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    // B serves A's session: it lives in the shared store.
    const page = await (await get(b, "/account", cookie)).text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1]!;
    const grants = [...new Set([...page.matchAll(/name="grant" value="([0-9a-f]{32})"/g)].map((m) => m[1]!))];
    expect(grants).toHaveLength(2);

    // Newest first: the connection made through B.
    const done = await postForm(a, "/account/revoke", { grant: grants[0]!, csrf_token: csrf, confirm: "1" }, { cookie });
    expect(done.status).toBe(303);
    expect(await mcpStatus(b, revoked)).toBe(401);
    expect(await mcpStatus(a, revoked)).toBe(401);
    expect(await mcpStatus(b, kept)).toBe(200);
  }, 60_000);
});
