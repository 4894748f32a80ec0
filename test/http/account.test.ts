// The owner's page /account (docs/owner.md §7) through app.handle against the harness Dovecot:
// sign-in, the session and its cookie, what one mailbox sees, the actions and their refusals.
import { describe, expect, test } from "bun:test";
import { getHarness, type Harness } from "../support/harness.ts";
import { testDeps } from "../support/app.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, tokenFields, type Handler } from "../oauth/flow.ts";

type User = "alice" | "bob";

function fieldsOf(h: Harness, who: User, extra: Record<string, string> = {}) {
  const u = h.dovecot.users[who];
  return aliceFields(h, { request_id: "", csrf_token: "" }, { email: u.email, password: u.pass, ...extra });
}

/** A connection (grant + token) of `who`'s mailbox. */
async function connectAs(app: Handler, h: Harness, who: User, send = "new_recipients"): Promise<string> {
  const verifier = newVerifier();
  const ids = formIds(await (await authorize(app, authorizeQuery(verifier))).text());
  const res = await postForm(app, "/oauth/connect", { ...fieldsOf(h, who, { send }), ...ids });
  const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
  const token = await postForm(app, "/oauth/token", tokenFields(code, verifier));
  return ((await token.json()) as { access_token: string }).access_token;
}

const signInToken = async (app: Handler) => /name="csrf_token" value="([^"]+)"/.exec(await (await get(app, "/account")).text())![1]!;
const get = (app: Handler, path: string, cookie?: string) =>
  app.handle(new Request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} }));

async function signIn(app: Handler, h: Harness, who: User, password?: string) {
  const { request_id: _r, ...fields } = fieldsOf(h, who, password ? { password } : {});
  return postForm(app, "/account/sign-in", { ...fields, csrf_token: await signInToken(app) });
}

async function session(app: Handler, h: Harness, who: User) {
  const res = await signIn(app, h, who);
  expect(res.status).toBe(303);
  const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
  const page = await (await get(app, "/account", cookie)).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1]!;
  return { cookie, csrf, page };
}

const grantsIn = (page: string) => [...new Set([...page.matchAll(/name="grant" value="([0-9a-f]{32})"/g)].map((m) => m[1]!))];
const mcpStatus = async (app: Handler, token: string) => (await app.handle(new Request("http://localhost/mcp", {
  method: "POST",
  headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
}))).status;

describe("/account", () => {
  test("signed out: the sign-in form, with the security headers of the setup pages (no framing)", async () => {
    const { app } = testDeps();
    const res = await get(app, "/account");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("content-security-policy")).not.toContain("unsafe-inline");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toContain('action="/account/sign-in"');
  });

  test("wrong password: the form again with the reason, never the password; counted by /oauth/connect's limit", async () => {
    const h = await getHarness();
    const { app } = testDeps();
    const wrong = "Wr0ng-and-Unique-9182";
    const res = await signIn(app, h, "alice", wrong);
    expect(res.status).toBe(401);
    const body = await res.text();
    expect(body).toContain("account-sign-in");
    expect(body).not.toContain(wrong);
    expect(res.headers.get("set-cookie")).toBeNull();
    for (let i = 0; i < 4; i++) await signIn(app, h, "alice", wrong);
    // The sixth failure in the window is refused before the mail server, the limit of the setup form.
    expect((await signIn(app, h, "alice", wrong)).status).toBe(429);
    const ids = formIds(await (await authorize(app, authorizeQuery(newVerifier()))).text());
    expect((await postForm(app, "/oauth/connect", { ...fieldsOf(h, "alice"), ...ids })).status).toBe(429);
  });

  test("a session sees its mailbox's connections only; revoke ends the app's token; 404 for another's; CSRF; confirm", async () => {
    const h = await getHarness();
    const { app } = testDeps();
    const [a1, a2] = [await connectAs(app, h, "alice"), await connectAs(app, h, "alice")];
    const bobToken = await connectAs(app, h, "bob");
    const alice = await session(app, h, "alice");
    const bob = await session(app, h, "bob");
    const aliceGrants = grantsIn(alice.page);
    const bobGrants = grantsIn(bob.page);
    expect(aliceGrants).toHaveLength(2);
    expect(bobGrants).toHaveLength(1);
    expect(aliceGrants).not.toContain(bobGrants[0]!);
    expect(alice.page).toContain(h.dovecot.users.alice.email);
    expect(alice.page).not.toContain(h.dovecot.users.bob.email);

    const post = (s: { cookie: string }, path: string, fields: Record<string, string>) => postForm(app, path, fields, { cookie: s.cookie });
    // No CSRF token, or bob's: 403.
    expect((await post(alice, "/account/revoke", { grant: aliceGrants[0]!, confirm: "1" })).status).toBe(403);
    expect((await post(alice, "/account/revoke", { grant: aliceGrants[0]!, confirm: "1", csrf_token: bob.csrf })).status).toBe(403);
    // Bob's grant from Alice's session: 404, and bob's token still works.
    const foreign = await post(alice, "/account/revoke", { grant: bobGrants[0]!, confirm: "1", csrf_token: alice.csrf });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).not.toContain(h.dovecot.users.bob.email);
    expect((await post(alice, "/account/send-policy", { grant: bobGrants[0]!, send: "always", confirm: "1", csrf_token: alice.csrf })).status).toBe(404);
    expect(await mcpStatus(app, bobToken)).not.toBe(401);
    // Without confirm=1 the page asks first and nothing happens.
    const ask = await post(alice, "/account/revoke", { grant: aliceGrants[0]!, csrf_token: alice.csrf });
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain('name="confirm" value="1"');
    expect(grantsIn(await (await get(app, "/account", alice.cookie)).text())).toHaveLength(2);
    // Revoked: the newest grant is a2's (listed first); its next /mcp call gets 401, a1's still works.
    expect(await mcpStatus(app, a2)).not.toBe(401);
    const revoked = await post(alice, "/account/revoke", { grant: aliceGrants[0]!, confirm: "1", csrf_token: alice.csrf });
    expect(revoked.status).toBe(303);
    expect(await mcpStatus(app, a2)).toBe(401);
    expect(await mcpStatus(app, a1)).not.toBe(401);
    const after = await (await get(app, "/account", alice.cookie)).text();
    expect(grantsIn(after)).toEqual([aliceGrants[1]!]);
    expect(after).toContain("owner:revoke"); // recorded in the activity log as the owner's
    expect(grantsIn(await (await get(app, "/account", bob.cookie)).text())).toEqual(bobGrants);
  });

  test("send policy: changed for this mailbox's connection and recorded", async () => {
    const h = await getHarness();
    const { app, grants } = testDeps();
    await connectAs(app, h, "alice", "direct");
    const alice = await session(app, h, "alice");
    const [grant] = grantsIn(alice.page);
    const res = await postForm(app, "/account/send-policy", { grant: grant!, send: "always", confirm: "1", csrf_token: alice.csrf }, { cookie: alice.cookie });
    expect(res.status).toBe(303);
    expect(await grants.sendPolicy(grant!)).toBe("always");
    const bad = await postForm(app, "/account/send-policy", { grant: grant!, send: "sometimes", confirm: "1", csrf_token: alice.csrf }, { cookie: alice.cookie });
    expect(bad.status).toBe(400);
  });

  test("identities: asked first, then set for this mailbox (every connection of it); a bad line is 400", async () => {
    const h = await getHarness();
    const { app } = testDeps();
    await connectAs(app, h, "alice");
    const alice = await session(app, h, "alice");
    const post = (fields: Record<string, string>) => postForm(app, "/account/identities", { csrf_token: alice.csrf, ...fields }, { cookie: alice.cookie });
    const fields = { send_as: "Alice Work <alice.work@example.test>", signature: "-- \nAlice <b>" };
    const ask = await post(fields);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("alice.work@example.test"); // re-posted by the confirmation
    expect((await post({ ...fields, confirm: "1" })).status).toBe(303);
    const page = await (await get(app, "/account", alice.cookie)).text();
    expect(page).toContain("Alice Work &lt;alice.work@example.test&gt;");
    expect(page).toContain("Alice &lt;b&gt;");
    expect(page).toContain("owner:identities");
    const bad = await post({ send_as: "not an address", confirm: "1" });
    expect(bad.status).toBe(400);
    const bob = await session(app, h, "bob");
    expect(bob.page).not.toContain("alice.work@example.test");
  });

  test("signatures per address: one form each; set for the listed address only; an address not of this mailbox is 404", async () => {
    const h = await getHarness();
    const { app, store } = testDeps();
    await connectAs(app, h, "alice");
    const alice = await session(app, h, "alice");
    const post = (path: string, fields: Record<string, string>) => postForm(app, path, { csrf_token: alice.csrf, confirm: "1", ...fields }, { cookie: alice.cookie });
    expect((await post("/account/identities", { send_as: "Alice Work <alice.work@example.test>", signature: "Home sig" })).status).toBe(303);
    const page = await (await get(app, "/account", alice.cookie)).text();
    expect(page).toContain('name="address" value="alice.work@example.test"');
    expect((await post("/account/signature", { address: "ALICE.WORK@example.test", signature: "Work <sig>" })).status).toBe(303);
    expect((await post("/account/signature", { address: "someone@else.example", signature: "x" })).status).toBe(404);
    expect((await post("/account/signature", { address: "alice.work@example.test", signature: "\u0007bell" })).status).toBe(400);
    const key = store.identities.keyOf(`${h.dovecot.users.alice.email.toLowerCase()}\0${h.dovecot.host.toLowerCase()}:${h.dovecot.port}`);
    expect(await store.identities.get(key)).toEqual({
      sendAs: [{ name: "Alice Work", address: "alice.work@example.test", signature: "Work <sig>" }], signature: "Home sig",
    });
    // Listing the addresses again keeps each one's signature.
    expect((await post("/account/identities", { send_as: "Alice W <alice.work@example.test>", signature: "Home sig" })).status).toBe(303);
    expect((await store.identities.get(key))!.sendAs[0]!.signature).toBe("Work <sig>");
    const after = await (await get(app, "/account", alice.cookie)).text();
    expect(after).toContain("Work &lt;sig&gt;");
    expect(after).toContain("owner:signature");
  });

  test("signed out or expired: the cookie is worth nothing; the cookie's attributes", async () => {
    const h = await getHarness();
    const { app, clock } = testDeps();
    const res = await signIn(app, h, "alice");
    const set = res.headers.get("set-cookie")!;
    expect(set).toMatch(/^mbx_account=[0-9a-f]{64}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/);
    const alice = await session(app, h, "alice");
    const out = await postForm(app, "/account/sign-out", { csrf_token: alice.csrf, confirm: "1" }, { cookie: alice.cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect(await (await get(app, "/account", alice.cookie)).text()).toContain('action="/account/sign-in"');
    const replay = await postForm(app, "/account/revoke-all", { csrf_token: alice.csrf, confirm: "1" }, { cookie: alice.cookie });
    expect(replay.status).toBe(401);
    const idle = await session(app, h, "alice");
    clock.advance(31 * 60_000);
    expect(await (await get(app, "/account", idle.cookie)).text()).toContain('action="/account/sign-in"');
  });

  test("https: the cookie is __Host- prefixed and Secure", async () => {
    const h = await getHarness();
    const { app } = testDeps({ baseUrl: "https://mail.example.org" });
    const token = /name="csrf_token" value="([^"]+)"/.exec(await (await app.handle(new Request("http://localhost/account", { headers: { host: "mail.example.org" } }))).text())?.[1];
    if (!token) throw new Error("no sign-in form");
    const { request_id: _r, ...fields } = fieldsOf(h, "alice");
    const res = await postForm(app, "/account/sign-in", { ...fields, csrf_token: token });
    expect(res.headers.get("set-cookie")).toMatch(/^__Host-mbx_account=[0-9a-f]{64}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
  });
});
