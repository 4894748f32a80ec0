// GET /oauth/authorize under a flood (docs/oauth.md §5): per client address (IPv6 by /64) at most
// 30 a minute and 50 live pending requests, else 429 with Retry-After and no form; a full table
// sheds its biggest holder instead of refusing everyone. MAILBOX_MCP_TRUST_PROXY lets a test be
// many addresses through X-Forwarded-For.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_PENDING, MAX_PENDING_PER_CLIENT } from "../../src/oauth/rate-limits/authorize-limit.ts";
import { LIMITS } from "../../src/oauth/rate-limits/table.ts";
import { testApp } from "../support/app.ts";
import { getHarness } from "../support/harness.ts";
import { startTestServer, type TestServer } from "../support/mcp-client.ts";
import { authorize, authorizeQuery, newVerifier, obtainCode, postForm, tokenFields, type Handler } from "../oauth/flow.ts";

const AUTHORIZE_RATE = LIMITS.authorize;

const from = (ip: string) => ({ "x-forwarded-for": ip });
const open = (app: Handler, ip: string) => authorize(app, authorizeQuery(newVerifier()), from(ip));
const PENDING = { redirectUri: "http://localhost:6274/oauth/callback", codeChallenge: "c".repeat(43), state: "s", resource: null };

/** Fills the store as `clients` distinct addresses holding `each` pending requests. */
async function fill(pending: ReturnType<typeof testApp>["pending"], clients: number, each: number): Promise<void> {
  for (let c = 0; c < clients; c++) for (let i = 0; i < each; i++) await pending.create(PENDING, 600_000, `ip:10.9.${c >> 8}.${c & 255}`);
}

async function expectRefused(res: Response) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  const body = await res.text();
  expect(body).not.toContain('name="request_id"');
  return { retryAfter, body };
}

describe("per client address", () => {
  test(`${AUTHORIZE_RATE.max} a minute; the next is 429 with Retry-After, not the form; a minute later it works again`, async () => {
    const { app, clock } = testApp({ trustProxy: true });
    for (let i = 0; i < AUTHORIZE_RATE.max; i++) expect((await open(app, "203.0.113.5")).status).toBe(200);
    const { retryAfter, body } = await expectRefused(await open(app, "203.0.113.5"));
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(body).toContain("Too many sign-ins");
    const json = await authorize(app, authorizeQuery(newVerifier()), { ...from("203.0.113.5"), accept: "application/json" });
    expect(json.status).toBe(429);
    expect(await json.json()).toMatchObject({ error: "temporarily_unavailable" });
    expect((await open(app, "203.0.113.6")).status).toBe(200);
    clock.advance(60_000);
    expect((await open(app, "203.0.113.5")).status).toBe(200);
  });

  test(`at most ${MAX_PENDING_PER_CLIENT} live pending requests; Retry-After is when the first expires`, async () => {
    const { app, clock, pending } = testApp({ trustProxy: true });
    for (let i = 0; i < MAX_PENDING_PER_CLIENT; i++) {
      expect((await open(app, "203.0.113.7")).status).toBe(200);
      clock.advance(AUTHORIZE_RATE.windowMs / AUTHORIZE_RATE.max);
    }
    const { retryAfter } = await expectRefused(await open(app, "203.0.113.7"));
    expect(retryAfter).toBe(Math.ceil(((await pending.heldBy("ip:203.0.113.7")).firstExpiry! - clock()) / 1000));
    clock.advance(retryAfter * 1000);
    expect((await open(app, "203.0.113.7")).status).toBe(200);
  });

  test("IPv6 clients are counted by /64", async () => {
    const { app } = testApp({ trustProxy: true });
    for (let i = 1; i <= AUTHORIZE_RATE.max; i++) expect((await open(app, `2001:db8:1:2::${i.toString(16)}`)).status).toBe(200);
    await expectRefused(await open(app, "2001:db8:1:2:ffff::1"));
    expect((await open(app, "2001:db8:1:3::1")).status).toBe(200);
  });
});

describe(`a full table (${MAX_PENDING})`, () => {
  test("sheds the biggest holder's oldest request for a newcomer, and refuses the biggest holder", async () => {
    const { app, pending } = testApp({ trustProxy: true });
    await fill(pending, 250, 40); // a spread flood: 250 addresses × 40
    expect(await pending.count()).toBe(MAX_PENDING);
    expect((await open(app, "198.51.100.20")).status).toBe(200);
    expect(await pending.count()).toBe(MAX_PENDING);
    expect((await pending.heldBy("ip:198.51.100.20")).count).toBe(1);
    await expectRefused(await open(app, "10.9.0.7")); // holds 40, as many as anyone
  });

  test("one holder of most of the table loses rows to everyone else", async () => {
    const { app, pending } = testApp({ trustProxy: true });
    for (let i = 0; i < MAX_PENDING; i++) await pending.create(PENDING, 600_000); // rows without a client
    for (let i = 0; i < 5; i++) expect((await open(app, `198.51.100.${i}`)).status).toBe(200);
    expect(await pending.count()).toBe(MAX_PENDING);
  });
});

describe("a flood through the real server", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ config: { trustProxy: true } });
  });
  afterAll(() => srv.stop());

  /** flow.ts's helpers, over HTTP to the real server, as client `ip`. */
  const client = (ip: string): Handler => ({
    async handle(req) {
      const url = new URL(req.url);
      const headers = new Headers(req.headers);
      headers.set("x-forwarded-for", ip);
      return fetch(`${srv.baseUrl}${url.pathname}${url.search}`, {
        method: req.method, headers, redirect: "manual",
        body: req.method === "GET" ? undefined : await req.arrayBuffer(),
      });
    },
  });

  test("2,000 authorizes from one address and a table filled by 250 more leave another address's sign-in working", async () => {
    const h = await getHarness();
    await fill(srv.deps.pending, 250, 40);
    const flooder = client("203.0.113.66");
    const statuses: number[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const replies = await Promise.all(Array.from({ length: 100 }, () => authorize(flooder, authorizeQuery(newVerifier()))));
      for (const r of replies) {
        statuses.push(r.status);
        if (r.status === 429) expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
        await r.arrayBuffer();
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(AUTHORIZE_RATE.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2000 - AUTHORIZE_RATE.max);
    expect(await srv.deps.pending.count()).toBe(MAX_PENDING);

    const person = client("198.51.100.20");
    const { code, verifier } = await obtainCode(person, h);
    const token = await postForm(person, "/oauth/token", tokenFields(code, verifier));
    expect(token.status).toBe(200);
    expect((await token.json()).access_token).toMatch(/^[0-9a-f]{64}$/);
  }, 30_000);
});
