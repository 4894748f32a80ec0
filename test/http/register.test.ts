// POST /oauth/register (RFC 7591) and the metadata, with MAILBOX_MCP_OPEN_REGISTRATION off and on:
// what is accepted, what is refused with which error, and the per-address limit and the total cap.
import { countRows } from "../support/stores.ts";
import { describe, expect, test } from "bun:test";
import { hashSecret } from "../../src/store/crypto.ts";
import { LIMITS } from "../../src/oauth/rate-limits/table.ts";
import { purgeExpired } from "../../src/oauth/rate-limits/purge.ts";
import { CLIENT_IDLE_MS, EVICT_UNUSED_AFTER_MS, MAX_CLIENTS } from "../../src/oauth/protocol/registration.ts";
import { testApp } from "../support/app.ts";
import { LOOPBACK, register, registerOk } from "../oauth/register-flow.ts";

const REGISTER_LIMIT = LIMITS.register;

/** Today's document, byte for byte, as served with registration off (base URL http://localhost; RFC 9207 `iss` included). */
const SEED_METADATA = '{"issuer":"http://localhost","authorization_endpoint":"http://localhost/oauth/authorize",' +
  '"token_endpoint":"http://localhost/oauth/token","revocation_endpoint":"http://localhost/oauth/revoke",' +
  '"response_types_supported":["code"],"grant_types_supported":["authorization_code"],' +
  '"code_challenge_methods_supported":["S256"],"token_endpoint_auth_methods_supported":["client_secret_post"],' +
  '"scopes_supported":["email:read","email:write"],"authorization_response_iss_parameter_supported":true}';

const META_PATHS = ["/oauth/meta", "/.well-known/oauth-authorization-server"];
const get = (app: { handle(r: Request): Promise<Response> }, path: string) => app.handle(new Request(`http://localhost${path}`));

async function expectRefused(res: Response, error: string) {
  expect(res.status).toBe(400);
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = (await res.json()) as { error: string; error_description: string };
  expect(body.error).toBe(error);
  expect(body.error_description.length).toBeGreaterThan(0);
}

describe("registration off (the default)", () => {
  const { app, config } = testApp();

  test("the default configuration has it off", () => expect(config.openRegistration).toBe(false));

  test("/oauth/register is the ordinary 404", async () => {
    const unknown = await (await get(app, "/oauth/nope")).text();
    for (const res of [await register(app, { redirect_uris: [LOOPBACK] }), await get(app, "/oauth/register")]) {
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(unknown);
    }
  });

  for (const path of META_PATHS) {
    test(`${path} is byte for byte the seed's document`, async () => {
      expect(await (await get(app, path)).text()).toBe(SEED_METADATA);
    });
  }
});

describe("registration on: metadata", () => {
  const { app } = testApp({ openRegistration: true });
  for (const path of META_PATHS) {
    test(`${path} adds registration_endpoint and "none" beside client_secret_post`, async () => {
      const body = (await (await get(app, path)).json()) as Record<string, unknown>;
      expect(body).toEqual({
        ...JSON.parse(SEED_METADATA),
        registration_endpoint: "http://localhost/oauth/register",
        token_endpoint_auth_methods_supported: ["client_secret_post", "none"],
      });
    });
  }
});

describe("registration on: what is registered", () => {
  test("a public client by default: 201, RFC 7591 §3.2.1 fields, no secret, not cached", async () => {
    const { app, clients } = testApp({ openRegistration: true });
    const res = await register(app, { redirect_uris: [LOOPBACK], client_name: "Claude Code", scope: "email:read email:write" });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.client_id).toMatch(/^dyn-[0-9a-f]{32}$/);
    expect(body).toMatchObject({
      client_name: "Claude Code", redirect_uris: [LOOPBACK], grant_types: ["authorization_code"],
      response_types: ["code"], token_endpoint_auth_method: "none", scope: "email:read email:write",
    });
    expect(typeof body.client_id_issued_at).toBe("number");
    expect(body.client_secret).toBeUndefined();
    expect((await clients.find(body.client_id as string))?.kind).toBe("registered");
  });

  test("client_secret_post: its own secret, returned once and stored only as SHA-256", async () => {
    const { app, db } = testApp({ openRegistration: true });
    const c = await registerOk(app, { token_endpoint_auth_method: "client_secret_post" });
    expect(c.client_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(c.client_secret_expires_at).toBe(0);
    expect(c.token_endpoint_auth_method).toBe("client_secret_post");
    const [row] = await db.q<{ secret_hash: string }>`SELECT secret_hash FROM clients WHERE id = ${c.client_id}`;
    expect(row!.secret_hash).toBe(hashSecret(c.client_secret!));
    expect(JSON.stringify(await db.q`SELECT * FROM clients`)).not.toContain(c.client_secret!);
  });

  test("client_secret_basic is registered as asked, with a secret (test/http/client-secret-basic.test.ts)", async () => {
    const { app } = testApp({ openRegistration: true });
    const c = await registerOk(app, { token_endpoint_auth_method: "client_secret_basic" });
    expect(c.token_endpoint_auth_method).toBe("client_secret_basic");
    expect(c.client_secret).toMatch(/^[0-9a-f]{64}$/);
  });

  test("loopback URIs with any port, the allowlist and the operator's extra URIs are accepted", async () => {
    const chatgpt = "https://chatgpt.com/connector_platform_oauth_redirect";
    const { app } = testApp({ openRegistration: true, extraRedirectUris: [chatgpt] });
    const uris = ["http://localhost:33418/callback", "http://127.0.0.1:61000/", "http://[::1]/cb", "http://localhost",
      "https://claude.ai/api/mcp/auth_callback", "http://localhost:6274/oauth/callback/debug", chatgpt];
    expect((await registerOk(app, { redirect_uris: uris })).redirect_uris).toEqual(uris);
  });

  test("VS Code's fixed list: the foreign URIs are dropped, the loopback ones registered", async () => {
    const { app } = testApp({ openRegistration: true });
    const c = await registerOk(app, {
      redirect_uris: ["https://insiders.vscode.dev/redirect", "https://vscode.dev/redirect", "http://localhost",
        "http://127.0.0.1", "http://localhost:33418", "http://127.0.0.1:33418"],
      grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "none",
      client_name: "Visual Studio Code", application_type: "native",
    });
    expect(c.redirect_uris).toEqual(["http://localhost", "http://127.0.0.1", "http://localhost:33418", "http://127.0.0.1:33418"]);
  });

  test("grant_types with refresh_token is registered as authorization_code only; unknown fields are ignored", async () => {
    const { app } = testApp({ openRegistration: true });
    const c = await registerOk(app, { grant_types: ["authorization_code", "refresh_token"], logo_uri: "https://x.example/l.png" });
    expect(c.grant_types).toEqual(["authorization_code"]);
    expect(c.logo_uri).toBeUndefined();
  });

  test("the name loses control and bidi characters; an empty name is no name", async () => {
    const { app } = testApp({ openRegistration: true });
    expect((await registerOk(app, { client_name: "Claude\u202E edoC\u0007" })).client_name).toBe("Claude edoC");
    expect((await registerOk(app, { client_name: " \u200B " })).client_name).toBeUndefined();
  });
});

describe("registration on: refusals (RFC 7591 §3.2.2)", () => {
  const t = testApp({ openRegistration: true, trustProxy: true });
  const { db } = t;
  let n = 0; // a fresh client address per request, so the per-address limit stays out of the way
  const app = { handle: (r: Request) => (r.headers.set("x-forwarded-for", `10.9.${n >> 8}.${n++ & 255}`), t.app.handle(r)) };
  const count = () => countRows(db, "clients");

  test("https://evil.example/cb is refused with invalid_redirect_uri and nothing is stored", async () => {
    await expectRefused(await register(app, { redirect_uris: ["https://evil.example/cb"] }), "invalid_redirect_uri");
    expect(await count()).toBe(0);
  });

  const notLoopback = ["https://localhost/cb", "http://localhost.evil.example/cb", "http://evil.example@localhost/cb",
    "http://localhost/cb#frag", "http://127.0.0.2/cb", "http://0.0.0.0:80/cb", "http://claude.ai/api/mcp/auth_callback",
    "https://claude.ai/api/mcp/auth_callback/", "javascript:alert(1)", "not a url"];
  for (const uri of notLoopback) {
    test(`${uri} is refused`, async () => {
      await expectRefused(await register(app, { redirect_uris: [uri] }), "invalid_redirect_uri");
    });
  }

  const badUris: unknown[] = [undefined, [], "http://localhost/cb", [42], Array(21).fill(LOOPBACK)];
  for (const value of badUris) {
    test(`redirect_uris ${JSON.stringify(value)?.slice(0, 40)} is invalid_redirect_uri`, async () => {
      await expectRefused(await register(app, { redirect_uris: value }), "invalid_redirect_uri");
    });
  }

  const badMetadata: Array<[string, Record<string, unknown>]> = [
    ["auth method private_key_jwt", { token_endpoint_auth_method: "private_key_jwt" }],
    ["grant_types without authorization_code", { grant_types: ["client_credentials"] }],
    ["grant_types not an array", { grant_types: "authorization_code" }],
    ["response_types without code", { response_types: ["token"] }],
    ["client_name not a string", { client_name: { en: "x" } }],
    ["client_name over 100 characters", { client_name: "x".repeat(101) }],
    ["scope not a string", { scope: ["email:read"] }],
  ];
  for (const [what, fields] of badMetadata) {
    test(`${what} is invalid_client_metadata`, async () => {
      await expectRefused(await register(app, { redirect_uris: [LOOPBACK], ...fields }), "invalid_client_metadata");
    });
  }

  test("a body that is not a JSON object, or not JSON at all", async () => {
    await expectRefused(await register(app, [LOOPBACK]), "invalid_client_metadata");
    const form = await app.handle(new Request("http://localhost/oauth/register", {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "redirect_uris=x",
    }));
    await expectRefused(form, "invalid_client_metadata");
    expect((await register(app, "{not json")).status).toBe(400);
    expect(await count()).toBe(0);
  });
});

describe("registration on: per-address limit and total cap", () => {
  const from = (ip: string) => ({ "x-forwarded-for": ip });

  test(`${REGISTER_LIMIT.max} per hour per address, then 429 with Retry-After; others unaffected; the window slides`, async () => {
    const { app, clock } = testApp({ openRegistration: true, trustProxy: true });
    for (let i = 0; i < REGISTER_LIMIT.max; i++) await registerOk(app, {}, from("203.0.113.7"));
    const over = await register(app, { redirect_uris: [LOOPBACK] }, from("203.0.113.7"));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBe(3600);
    expect(((await over.json()) as { error: string }).error).toBe("temporarily_unavailable");
    // Invalid requests count too, and a neighbour in the same IPv6 /64 shares the count.
    for (let i = 0; i < REGISTER_LIMIT.max; i++) await register(app, {}, from("2001:db8:1:2::1"));
    expect((await register(app, { redirect_uris: [LOOPBACK] }, from("2001:db8:1:2::ffff"))).status).toBe(429);
    await registerOk(app, {}, from("198.51.100.1"));
    clock.advance(REGISTER_LIMIT.windowMs);
    await registerOk(app, {}, from("203.0.113.7"));
  });

  test(`at most ${MAX_CLIENTS} live registrations: 503, then room only by evicting a stale never-used one`, async () => {
    const { app, clock, clients, db } = testApp({ openRegistration: true, trustProxy: true });
    const ids: string[] = [];
    for (let i = 0; i < MAX_CLIENTS; i++) {
      ids.push((await registerOk(app, {}, from(`10.0.${Math.floor(i / REGISTER_LIMIT.max)}.1`))).client_id);
      if (i === 0) clock.advance(1000); // the first is the oldest
    }
    const full = await register(app, { redirect_uris: [LOOPBACK] }, from("192.0.2.1"));
    expect(full.status).toBe(503);
    expect(full.headers.get("retry-after")).toBe(String(EVICT_UNUSED_AFTER_MS / 1000));
    // An hour later the oldest never-granted registration makes room; the total stays at the cap.
    clock.advance(EVICT_UNUSED_AFTER_MS);
    const late = await registerOk(app, {}, from("192.0.2.1"));
    expect((await clients.find(late.client_id))).not.toBeNull();
    expect((await clients.find(ids[0]!))).toBeNull();
    expect((await clients.find(ids[1]!))).not.toBeNull();
    expect(await countRows(db, "clients")).toBe(MAX_CLIENTS);
  });

  test("a registration without a grant expires after 30 days and is purged", async () => {
    const { app, clock, clients, db, store } = testApp({ openRegistration: true });
    const c = await registerOk(app);
    clock.advance(CLIENT_IDLE_MS - 1);
    expect((await clients.find(c.client_id))).not.toBeNull();
    clock.advance(1);
    expect((await clients.find(c.client_id))).toBeNull();
    await registerOk(app);
    expect(await countRows(db, "clients")).toBe(2);
    await purgeExpired(store); // src/service.ts runs it every minute
    expect(await countRows(db, "clients")).toBe(1);
  });
});
