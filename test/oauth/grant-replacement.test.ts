// A new connect for the same mailbox login and client revokes that login's grants beyond the
// newest GRANTS_PER_LOGIN (src/oauth/setup/connect.ts), through the real listening server, the real
// OAuth flow against the harness Dovecot, and the SDK client: the replaced token's sessions close
// (through the revocation path, which also drops its IMAP and SMTP connections) and it gets 401.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GRANTS_PER_LOGIN } from "../../src/oauth/setup/connect.ts";
import { getHarness, type Harness } from "../support/harness.ts";
import { callOk, connectClient, startTestServer, type TestServer } from "../support/mcp-client.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, tokenFields, type Handler } from "./flow.ts";

let h: Harness;
let srv: TestServer;
/** The flow helpers' requests (http://localhost/...) sent to the listening server instead. */
let http: Handler;
const revoked: string[] = [];

beforeAll(async () => {
  h = await getHarness();
  srv = await startTestServer();
  http = {
    handle: (req) => fetch(req.url.replace("http://localhost", srv.baseUrl), {
      method: req.method, headers: req.headers, body: req.method === "POST" ? req.body : undefined, redirect: "manual",
    }),
  };
  srv.deps.events.onRevoked((tokenId) => void revoked.push(tokenId));
}, 30_000);
afterAll(() => srv.stop());

/** authorize → connect (with `overrides` on the form) → the code; the token is exchanged later. */
async function connect(overrides: Record<string, string> = {}): Promise<{ code: string; verifier: string }> {
  const verifier = newVerifier();
  const page = await authorize(http, authorizeQuery(verifier));
  expect(page.status).toBe(200);
  const res = await postForm(http, "/oauth/connect", aliceFields(h, formIds(await page.text()), overrides));
  expect(res.status).toBe(303);
  return { verifier, code: new URL(res.headers.get("location")!).searchParams.get("code")! };
}

async function exchange(c: { code: string; verifier: string }): Promise<Response> {
  return postForm(http, "/oauth/token", tokenFields(c.code, c.verifier));
}

async function newToken(overrides: Record<string, string> = {}): Promise<string> {
  const res = await exchange(await connect(overrides));
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const mcpStatus = async (token: string) => {
  const res = await fetch(srv.mcpUrl, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
  await res.body?.cancel();
  return res.status;
};

describe("a new connect replaces the oldest grants of the same login", () => {
  test(`the ${GRANTS_PER_LOGIN + 1}th connect revokes the oldest token: its session closes and it gets 401`, async () => {
    expect(GRANTS_PER_LOGIN).toBe(5);
    const oldest = await newToken();
    const client = await connectClient(srv.mcpUrl, oldest);
    expect((await callOk(client, "list_mailboxes")).mailboxes.length).toBeGreaterThan(0); // IMAP connection open
    const tokenId = (await srv.deps.grants.findToken(oldest))!.id;
    const bob = await newToken({ email: h.dovecot.users.bob.email, password: h.dovecot.users.bob.pass }); // another login
    const kept: string[] = [];
    for (let i = 1; i < GRANTS_PER_LOGIN; i++) kept.push(await newToken());
    expect(revoked).toEqual([]); // five grants of alice: nothing replaced yet
    expect((await srv.deps.sessions.countFor(tokenId))).toBe(1);

    kept.push(await newToken()); // the sixth
    expect(revoked).toEqual([tokenId]);
    expect((await srv.deps.sessions.countFor(tokenId))).toBe(0);
    expect(await srv.deps.grants.findToken(oldest)).toBeNull();
    expect(await mcpStatus(oldest)).toBe(401);
    await expect(client.callTool({ name: "list_mailboxes", arguments: {} })).rejects.toThrow();
    for (const token of [...kept, bob]) expect(await srv.deps.grants.findToken(token)).not.toBeNull();
    expect((await callOk(await connectClient(srv.mcpUrl, kept.at(-1)!), "list_mailboxes")).mailboxes.length).toBeGreaterThan(0);
    await client.close().catch(() => {});
  });

  test("a replaced grant's code not yet exchanged is refused at the token endpoint", async () => {
    const pendingCode = await connect();
    for (let i = 0; i < GRANTS_PER_LOGIN; i++) await newToken();
    const res = await exchange(pendingCode);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_grant");
  });
});
