// The Bearer guard used by /mcp (RFC 6750 §3, RFC 9728 §5.1, docs/design.md §2).
import { describe, expect, test } from "bun:test";
import { checkBearer } from "../../src/oauth/protocol/bearer.ts";
import { getHarness } from "../support/harness.ts";
import { testApp } from "../support/app.ts";
import { obtainToken, postForm } from "./flow.ts";

const BASE = "http://localhost";
const CHALLENGE = `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp", scope="email:read email:write"`;
// Built by the SDK's bearerAuthChallengeResponse (v2): its parameter order, the same parameters.
const INVALID = `Bearer error="invalid_token", error_description="The access token is invalid, expired or revoked", ` +
  `scope="email:read email:write", resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`;

describe("Bearer guard", () => {
  test("no Authorization header: 401 without error=", async () => {
    const { grants } = testApp();
    const r = await checkBearer(grants, BASE, null);
    if (r.ok) throw new Error("accepted");
    expect(r.response.status).toBe(401);
    expect(r.response.headers.get("www-authenticate")).toBe(CHALLENGE);
    expect(r.response.headers.get("www-authenticate")).not.toContain("error=");
  });

  test.each(["Bearer " + "0".repeat(64), "Bearer not-a-token", "Basic abc", "Bearer", "bearer " + "a".repeat(63), "Bearer a b"])(
    "unknown or malformed token %p: 401 invalid_token",
    async (header) => {
      const { grants } = testApp();
      const r = await checkBearer(grants, BASE, header);
      if (r.ok) throw new Error("accepted");
      expect(r.response.status).toBe(401);
      expect(r.response.headers.get("www-authenticate")).toBe(INVALID);
      expect(await r.response.json()).toMatchObject({ error: "invalid_token" });
    },
  );

  test("a real token passes (scheme case-insensitive); expired by clock after 30 days; revoked", async () => {
    const h = await getHarness();
    const { app, grants, clock } = testApp();
    const { token } = await obtainToken(app, h);
    const ok = await checkBearer(grants, BASE, `Bearer ${token}`);
    expect(ok.ok).toBe(true);
    if (ok.ok) expect(ok.auth.scopes).toEqual(["email:read", "email:write"]);
    expect((await checkBearer(grants, BASE, `bEaReR ${token}`)).ok).toBe(true);
    expect((await checkBearer(grants, BASE, `Bearer   ${token} `)).ok).toBe(true); // 1*SP (RFC 6750 §2.1)

    clock.advance(30 * 24 * 3600_000 - 1000);
    expect((await checkBearer(grants, BASE, `Bearer ${token}`)).ok).toBe(true);
    clock.advance(1000);
    const expired = await checkBearer(grants, BASE, `Bearer ${token}`);
    if (expired.ok) throw new Error("expired token accepted");
    expect(expired.response.headers.get("www-authenticate")).toBe(INVALID);

    const second = testApp();
    const t2 = (await obtainToken(second.app, h)).token;
    await postForm(second.app, "/oauth/revoke", { token: t2 });
    const revoked = await checkBearer(second.grants, BASE, `Bearer ${t2}`);
    if (revoked.ok) throw new Error("revoked token accepted");
    expect(revoked.response.status).toBe(401);
    expect(revoked.response.headers.get("www-authenticate")).toBe(INVALID);
  });
});
