// Confidential registered clients (RFC 7591) at the token endpoint with either client authentication
// method of RFC 6749 §2.3.1: client_secret_post (the body) and client_secret_basic (HTTP Basic, the id
// and secret form-urlencoded before base64). Microsoft 365 Copilot registers with client_secret_basic.
import { describe, expect, test } from "bun:test";
import { hashSecret } from "../../src/store/crypto.ts";
import { getHarness } from "../support/harness.ts";
import { testApp } from "../support/app.ts";
import { obtainCode, postForm, tokenFields } from "../oauth/flow.ts";
import { LOOPBACK, registerOk, type Registered } from "../oauth/register-flow.ts";

const on = () => testApp({ openRegistration: true });
const form = (s: string) => encodeURIComponent(s).replaceAll("%20", "+");
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${form(id)}:${form(secret)}`).toString("base64")}`;

async function codeFor(t: ReturnType<typeof on>, client: Registered) {
  return obtainCode(t.app, await getHarness(), { query: { client_id: client.client_id, redirect_uri: LOOPBACK } });
}

/** A token request with the credentials in the Authorization header only (client_id and secret left out of the body). */
function tokenWithHeader(t: ReturnType<typeof on>, code: string, verifier: string, authorization: string, body: Record<string, string | null> = {}) {
  return postForm(t.app, "/oauth/token", tokenFields(code, verifier, { client_id: null, client_secret: null, redirect_uri: LOOPBACK, ...body }),
    { authorization });
}

async function errorOf(res: Response): Promise<[number, string]> {
  return [res.status, ((await res.json()) as { error: string }).error];
}

describe("client_secret_basic: a registered confidential client", () => {
  test("registration issues the secret once, keeps only its hash, and the metadata still lists client_secret_post only", async () => {
    const t = on();
    const c = await registerOk(t.app, { token_endpoint_auth_method: "client_secret_basic" });
    expect(c).toMatchObject({ token_endpoint_auth_method: "client_secret_basic", client_secret_expires_at: 0 });
    expect(c.client_secret).toMatch(/^[0-9a-f]{64}$/);
    const rows = await t.db.q<{ secret_hash: string; auth_method: string }>`SELECT secret_hash, auth_method FROM clients WHERE id = ${c.client_id}`;
    expect([...rows]).toEqual([{ secret_hash: hashSecret(c.client_secret!), auth_method: "client_secret_basic" }]);
    expect(JSON.stringify(await t.db.q`SELECT * FROM clients`)).not.toContain(c.client_secret!);
    const meta = (await (await t.app.handle(new Request("http://localhost/oauth/meta"))).json()) as Record<string, unknown>;
    expect(meta.token_endpoint_auth_methods_supported).toEqual(["client_secret_post", "none"]);
  });

  test("Basic with its id and secret is a token; the secret is required and a wrong one is 401 invalid_client with a Basic challenge", async () => {
    const t = on();
    const c = await registerOk(t.app, { token_endpoint_auth_method: "client_secret_basic" });
    const { code, verifier } = await codeFor(t, c);
    for (const authorization of [basic(c.client_id, "0".repeat(64)), basic(c.client_id, ""), basic("dyn-unknown", c.client_secret!), "Basic !!!", "Basic bm9jb2xvbg=="]) {
      const res = await tokenWithHeader(t, code, verifier, authorization);
      expect(res.headers.get("www-authenticate")).toStartWith("Basic ");
      expect(await errorOf(res)).toEqual([401, "invalid_client"]);
    }
    // Without any credentials (no header, no secret in the body) it is refused too.
    const bare = await postForm(t.app, "/oauth/token", tokenFields(code, verifier, { client_id: c.client_id, client_secret: null, redirect_uri: LOOPBACK }));
    expect(await errorOf(bare)).toEqual([401, "invalid_client"]);
    // The failures did not burn the code; the body may name the same client_id beside the header.
    const ok = await tokenWithHeader(t, code, verifier, basic(c.client_id, c.client_secret!), { client_id: c.client_id });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { token_type: string }).token_type).toBe("Bearer");
  });

  test("one method per request (RFC 6749 §2.3): Basic plus a body secret, or a body client_id naming another client, is invalid_request", async () => {
    const t = on();
    const c = await registerOk(t.app, { token_endpoint_auth_method: "client_secret_basic" });
    const { code, verifier } = await codeFor(t, c);
    const header = basic(c.client_id, c.client_secret!);
    expect(await errorOf(await tokenWithHeader(t, code, verifier, header, { client_secret: c.client_secret! }))).toEqual([400, "invalid_request"]);
    expect(await errorOf(await tokenWithHeader(t, code, verifier, header, { client_id: "dyn-other" }))).toEqual([400, "invalid_request"]);
  });

  test("either method works for any client with a secret (RFC 6749 §2.3.1: Basic MUST be supported for them)", async () => {
    const t = on();
    const post = await registerOk(t.app, { token_endpoint_auth_method: "client_secret_post" });
    const viaBasic = await codeFor(t, post);
    expect((await tokenWithHeader(t, viaBasic.code, viaBasic.verifier, basic(post.client_id, post.client_secret!))).status).toBe(200);
    const basicClient = await registerOk(t.app, { token_endpoint_auth_method: "client_secret_basic" });
    const viaBody = await codeFor(t, basicClient);
    const res = await postForm(t.app, "/oauth/token", tokenFields(viaBody.code, viaBody.verifier, {
      client_id: basicClient.client_id, client_secret: basicClient.client_secret!, redirect_uri: LOOPBACK,
    }));
    expect(res.status).toBe(200);
  });

  test("the id and secret are form-urlencoded inside the header (RFC 6749 §2.3.1): the configured client's secret with reserved characters", async () => {
    const t = testApp({ clientId: "client: one+two", clientSecret: "s3cret/with:colon %&+ and spaces" });
    const h = await getHarness();
    const { code, verifier } = await obtainCode(t.app, h, { query: { client_id: "client: one+two" } });
    const res = await postForm(t.app, "/oauth/token", tokenFields(code, verifier, { client_id: null, client_secret: null }),
      { authorization: basic("client: one+two", "s3cret/with:colon %&+ and spaces") });
    expect(res.status).toBe(200);
  });
});
