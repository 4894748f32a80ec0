// POST /oauth/token: success shape, every RFC 6749 error, check order, replay, expiry, resource.
import { describe, expect, test } from "bun:test";
import { hashSecret } from "../../src/store/crypto.ts";
import { getHarness } from "../support/harness.ts";
import { testApp } from "../support/app.ts";
import { LIMITS } from "../../src/oauth/rate-limits/table.ts";
import { byOutcome } from "../support/each.ts";
import { newVerifier, obtainCode, postForm, tokenFields, type Handler } from "../oauth/flow.ts";

const CLIENT_AUTH_LIMIT = LIMITS["token-client-auth"];

const INVALID_GRANT = "The authorization code is invalid, expired, or failed PKCE verification";

const token = (app: Handler, fields: Record<string, string>) => postForm(app, "/oauth/token", fields);

async function expectError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
  expect(body.error).toBe(error);
  return body as { error: string; error_description: string };
}

async function setup(query: Record<string, string | null> = {}) {
  const h = await getHarness();
  const t = testApp();
  const { code, verifier } = await obtainCode(t.app, h, { query });
  return { ...t, code, verifier };
}

describe("POST /oauth/token success", () => {
  test("exactly the contract's four fields (docs/contract.md §7); no-store and no-cache", async () => {
    const { app, code, verifier, grants } = await setup();
    const res = await token(app, tokenFields(code, verifier));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(res.headers.get("content-type")).toStartWith("application/json");
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
    expect(body.access_token).toMatch(/^[0-9a-f]{64}$/);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 2592000, scope: "email:read email:write" });
    expect(await grants.findToken(body.access_token as string)).not.toBeNull();
  });

  test("resource: the bound one, or the canonical /mcp when none was bound", async () => {
    const bound = await setup({ resource: "http://localhost/mcp" });
    expect((await token(bound.app, tokenFields(bound.code, bound.verifier, { resource: "http://localhost/mcp" }))).status).toBe(200);
    const none = await setup();
    expect((await token(none.app, tokenFields(none.code, none.verifier, { resource: "http://localhost/mcp" }))).status).toBe(200);
  });
});

describe("POST /oauth/token errors", () => {
  test.each(byOutcome([
    ["grant_type password", { grant_type: "password" }, 400, "unsupported_grant_type"],
    ["grant_type missing", { grant_type: null }, 400, "unsupported_grant_type"],
    ["wrong client_id", { client_id: "other" }, 401, "invalid_client"],
    ["missing client_id", { client_id: null }, 401, "invalid_client"],
    ["wrong client_secret", { client_secret: "nope-nope-nope-nope" }, 401, "invalid_client"],
    ["missing client_secret", { client_secret: null }, 401, "invalid_client"],
    ["missing code_verifier", { code_verifier: null }, 400, "invalid_request"],
    ["code_verifier too short", { code_verifier: "a".repeat(42) }, 400, "invalid_request"],
    ["code_verifier too long", { code_verifier: "a".repeat(129) }, 400, "invalid_request"],
    ["code_verifier with a space", { code_verifier: "a".repeat(50) + " b" }, 400, "invalid_request"],
    ["missing code", { code: null }, 400, "invalid_request"],
    ["missing redirect_uri", { redirect_uri: null }, 400, "invalid_request"],
    ["unknown code", { code: "x".repeat(48) }, 400, "invalid_grant"],
    ["PKCE mismatch", { code_verifier: newVerifier() }, 400, "invalid_grant"],
    ["redirect_uri differs", { redirect_uri: "http://localhost:6274/oauth/callback/debug" }, 400, "invalid_grant"],
    ["foreign resource", { resource: "https://other.example/mcp" }, 400, "invalid_target"],
    ["origin as resource when none was bound", { resource: "http://localhost" }, 400, "invalid_target"],
  ]))("%s → %d %s", async (_name, status, error, overrides) => {
    const { app, code, verifier } = await setup();
    const body = await expectError(await token(app, tokenFields(code, verifier, overrides)), status, error);
    if (error === "invalid_grant") expect(body.error_description).toBe(INVALID_GRANT);
  });

  test("a resource other than the bound one → invalid_target", async () => {
    const { app, code, verifier } = await setup({ resource: "http://localhost" });
    await expectError(await token(app, tokenFields(code, verifier, { resource: "http://localhost/mcp" })), 400, "invalid_target");
  });

  test("check order: grant_type before client, client before code_verifier, code_verifier before code", async () => {
    const { app, code, verifier } = await setup();
    await expectError(await token(app, tokenFields(code, verifier, { grant_type: "x", client_secret: "bad" })), 400, "unsupported_grant_type");
    await expectError(await token(app, tokenFields("unknown", verifier, { client_secret: "bad", code_verifier: null })), 401, "invalid_client");
    await expectError(await token(app, tokenFields("unknown", "short")), 400, "invalid_request");
  });

  test("a failed PKCE check leaves the code usable by its rightful owner", async () => {
    const { app, code, verifier } = await setup();
    await expectError(await token(app, tokenFields(code, newVerifier())), 400, "invalid_grant");
    expect((await token(app, tokenFields(code, verifier))).status).toBe(200);
  });

  test("only form-encoded bodies; schema problems are invalid_request, with no-store", async () => {
    const { app, code, verifier } = await setup();
    const json = await app.handle(new Request("http://localhost/oauth/token", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(tokenFields(code, verifier)),
    }));
    await expectError(json, 400, "invalid_request");
    const dup = await app.handle(new Request("http://localhost/oauth/token", {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(tokenFields(code, verifier)).toString() + "&code=again",
    }));
    await expectError(dup, 400, "invalid_request");
    const empty = await app.handle(new Request("http://localhost/oauth/token", { method: "POST" }));
    expect(empty.status).toBe(400);
    expect(empty.headers.get("cache-control")).toBe("no-store");
  });
});

describe(`failed client authentication: ${CLIENT_AUTH_LIMIT.max} per 15 minutes per client address`, () => {
  test("then 429 with Retry-After for that address, even with the right secret; other addresses unaffected", async () => {
    const h = await getHarness();
    const { app, clock } = testApp({ trustProxy: true });
    const { code, verifier } = await obtainCode(app, h);
    const as = (ip: string, fields: Record<string, string>) => postForm(app, "/oauth/token", fields, { "x-forwarded-for": ip });
    const wrong = tokenFields(code, verifier, { client_secret: "guess".repeat(8) });
    for (let i = 0; i < CLIENT_AUTH_LIMIT.max; i++) await expectError(await as("203.0.113.9", wrong), 401, "invalid_client");
    const blocked = await as("203.0.113.9", tokenFields(code, verifier));
    await expectError(blocked, 429, "temporarily_unavailable");
    expect(Number(blocked.headers.get("retry-after"))).toBe(15 * 60);
    await expectError(await as("2001:db8::1", wrong), 401, "invalid_client");
    clock.advance(CLIENT_AUTH_LIMIT.windowMs);
    await expectError(await as("203.0.113.9", wrong), 401, "invalid_client"); // counted again, not refused
  });

  test("only failed client authentication counts, and concurrent guesses cannot race past the limit", async () => {
    const h = await getHarness();
    const { app } = testApp({ trustProxy: true });
    const { code, verifier } = await obtainCode(app, h);
    for (let i = 0; i < CLIENT_AUTH_LIMIT.max + 5; i++) {
      await expectError(await token(app, tokenFields(code, verifier, { code_verifier: newVerifier() })), 400, "invalid_grant");
    }
    const wrong = tokenFields(code, verifier, { client_secret: "guess".repeat(8) });
    const statuses = (await Promise.all(Array.from({ length: 15 }, () => token(app, wrong)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(CLIENT_AUTH_LIMIT.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });
});

describe("code lifetime and replay", () => {
  test("a code expires after 5 minutes (clock)", async () => {
    const { app, code, verifier, clock } = await setup();
    clock.advance(5 * 60_000);
    const body = await expectError(await token(app, tokenFields(code, verifier)), 400, "invalid_grant");
    expect(body.error_description).toBe(INVALID_GRANT);
  });

  test("just under 5 minutes it still works", async () => {
    const { app, code, verifier, clock } = await setup();
    clock.advance(5 * 60_000 - 1);
    expect((await token(app, tokenFields(code, verifier))).status).toBe(200);
  });

  test("re-use of a code: invalid_grant and the token issued from it is revoked", async () => {
    const { app, code, verifier, grants, events } = await setup();
    const revoked: string[] = [];
    events.onRevoked((id) => { revoked.push(id); });
    const first = await token(app, tokenFields(code, verifier));
    const { access_token } = (await first.json()) as { access_token: string };
    expect(await grants.findToken(access_token)).not.toBeNull();

    const second = await token(app, tokenFields(code, verifier));
    const body = await expectError(second, 400, "invalid_grant");
    expect(body.error_description).toBe(INVALID_GRANT);
    expect(await grants.findToken(access_token)).toBeNull();
    expect(await grants.openCredentials(access_token)).toBeNull();
    expect(revoked).toEqual([hashSecret(access_token)]);
  });

  test("concurrent exchanges of one code: one wins, then both are revoked", async () => {
    const { app, code, verifier, grants } = await setup();
    const results = await Promise.all([token(app, tokenFields(code, verifier)), token(app, tokenFields(code, verifier))]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400]);
    const winner = (await results.find((r) => r.status === 200)!.json()) as { access_token: string };
    expect(await grants.findToken(winner.access_token)).toBeNull();
  });
});

describe("body size", () => {
  test("a form body declared over 64 KB is refused with 413 before it is read", async () => {
    const { app } = testApp();
    for (const path of ["/oauth/token", "/oauth/connect", "/oauth/revoke"]) {
      const body = new URLSearchParams({ grant_type: "authorization_code", pad: "x".repeat(70_000) }).toString();
      const res = await app.handle(new Request(`http://localhost${path}`, {
        method: "POST", body,
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(body.length) },
      }));
      expect(res.status).toBe(413);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
  });

  test("a chunked form or JSON body over 64 KB is refused with 413 too (no Content-Length)", async () => {
    const { app } = testApp();
    const chunked = (text: string) => new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < text.length; i += 8192) c.enqueue(new TextEncoder().encode(text.slice(i, i + 8192)));
        c.close();
      },
    });
    const cases: Array<[string, string, string]> = [
      ["/oauth/token", "application/x-www-form-urlencoded", `grant_type=authorization_code&pad=${"x".repeat(70_000)}`],
      ["/oauth/connect", "application/x-www-form-urlencoded", `email=a@b.c&pad=${"x".repeat(70_000)}`],
      ["/oauth/revoke", "application/json", JSON.stringify({ token: "x".repeat(70_000) })],
    ];
    for (const [path, type, text] of cases) {
      const req = new Request(`http://localhost${path}`, { method: "POST", body: chunked(text), headers: { "content-type": type }, duplex: "half" } as RequestInit);
      expect(req.headers.get("content-length")).toBeNull();
      const res = await app.handle(req);
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ error: "invalid_request" });
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  test("small bodies still parse: a revoke with JSON and a token request with a form", async () => {
    const { app } = testApp();
    const revoke = await app.handle(new Request("http://localhost/oauth/revoke", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: "ab".repeat(32) }),
    }));
    expect(await revoke.json()).toEqual({ revoked: true });
  });
});
