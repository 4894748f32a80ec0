// POST /oauth/revoke (RFC 7009; docs/contract.md §8: JSON {token}; always 200 {"revoked": true}).
import { describe, expect, test } from "bun:test";
import { checkBearer } from "../../src/oauth/protocol/bearer.ts";
import { hashSecret } from "../../src/store/crypto.ts";
import { getHarness } from "../support/harness.ts";
import { testApp } from "../support/app.ts";
import { countRows } from "../support/stores.ts";
import { obtainToken, postForm, type Handler } from "../oauth/flow.ts";

const revokeJson = (app: Handler, body: unknown) => app.handle(new Request("http://localhost/oauth/revoke", {
  method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
}));

async function expectRevoked(res: Response) {
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ revoked: true });
  expect(res.headers.get("cache-control")).toBe("no-store");
}

describe("POST /oauth/revoke", () => {
  test("JSON {token}: the token stops working, its credentials are destroyed, listeners are told", async () => {
    const h = await getHarness();
    const { app, grants, events, db } = testApp();
    const seen: string[] = [];
    events.onRevoked((id) => { seen.push(id); });
    const { token } = await obtainToken(app, h);
    expect(await grants.openCredentials(token)).not.toBeNull();
    await expectRevoked(await revokeJson(app, { token }));
    expect(await grants.findToken(token)).toBeNull();
    expect((await checkBearer(grants, "http://localhost", `Bearer ${token}`)).ok).toBe(false);
    expect(seen).toEqual([hashSecret(token)]);
    expect(await countRows(db, "grants")).toBe(0);
    expect(await countRows(db, "tokens")).toBe(0);
  });

  test("form-encoded token= works too (RFC 7009 §2.1)", async () => {
    const h = await getHarness();
    const { app, grants } = testApp();
    const { token } = await obtainToken(app, h);
    await expectRevoked(await postForm(app, "/oauth/revoke", { token, token_type_hint: "access_token" }));
    expect(await grants.findToken(token)).toBeNull();
  });

  test("unknown, repeated, empty, missing or odd tokens: still 200 {revoked: true}", async () => {
    const h = await getHarness();
    const { app, events } = testApp();
    let calls = 0;
    events.onRevoked(() => { calls++; });
    const { token } = await obtainToken(app, h);
    await expectRevoked(await revokeJson(app, { token }));
    await expectRevoked(await revokeJson(app, { token }));
    await expectRevoked(await revokeJson(app, { token: "f".repeat(64) }));
    await expectRevoked(await revokeJson(app, { token: "" }));
    await expectRevoked(await revokeJson(app, {}));
    await expectRevoked(await revokeJson(app, { token: 42 }));
    await expectRevoked(await revokeJson(app, ["x"]));
    await expectRevoked(await postForm(app, "/oauth/revoke", {}));
    expect(calls).toBe(1);
  });

  test("other content types: 400 invalid_request", async () => {
    const { app } = testApp();
    for (const [type, body] of [["text/plain", "token=abc"], ["application/xml", "<token/>"]] as const) {
      const res = await app.handle(new Request("http://localhost/oauth/revoke", { method: "POST", headers: { "content-type": type }, body }));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
    }
    const none = await app.handle(new Request("http://localhost/oauth/revoke", { method: "POST" }));
    expect(none.status).toBe(400);
    const badJson = await app.handle(new Request("http://localhost/oauth/revoke", {
      method: "POST", headers: { "content-type": "application/json" }, body: "{not json",
    }));
    expect(badJson.status).toBe(400);
  });
});
