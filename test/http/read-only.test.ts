// Read-only grants through the real routes: the form's `access` choice, capped by the scope asked for
// at authorize, becomes the token's scope; without a choice the seed's behaviour is unchanged.
import { describe, expect, test } from "bun:test";
import { chooseAccess, widestAccess } from "../../src/oauth/setup/access.ts";
import { testApp } from "../support/app.ts";
import { getHarness } from "../support/harness.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, tokenFields, type Handler } from "../oauth/flow.ts";

/** authorize (with `query`) → connect (with `fields`) → token; the token response or the connect response. */
async function flow(app: Handler, query: Record<string, string>, fields: Record<string, string>) {
  const h = await getHarness();
  const verifier = newVerifier();
  const page = await authorize(app, authorizeQuery(verifier, query));
  const html = await page.text();
  const connect = await postForm(app, "/oauth/connect", aliceFields(h, formIds(html), fields));
  if (connect.status !== 303) return { html, connect, token: null };
  const code = new URL(connect.headers.get("location")!).searchParams.get("code")!;
  const res = await postForm(app, "/oauth/token", tokenFields(code, verifier));
  return { html, connect, token: (await res.json()) as { access_token: string; scope: string } };
}

const radios = (html: string) => [...html.matchAll(/<input type="radio" name="access" value="(\w+)"( checked)?/g)].map((m) => m[1] + (m[2] ? "*" : ""));

describe("read-only grants", () => {
  test("default: both choices offered, read and write checked; no access field gives the spec's scope", async () => {
    const { app, grants } = testApp();
    const { html, token } = await flow(app, {}, {});
    expect(radios(html)).toEqual(["read_write*", "read"]);
    expect(html).toContain("Read only</strong>: the app can read and search but cannot send, draft, mark or move");
    expect(token!.scope).toBe("email:read email:write");
    expect((await grants.findToken(token!.access_token))!.scope).toBe("email:read email:write");
  });

  test("access=read gives a token with scope email:read", async () => {
    const { app, grants } = testApp();
    const { token } = await flow(app, { scope: "email:read email:write" }, { access: "read" });
    expect(token!.scope).toBe("email:read");
    expect((await grants.findToken(token!.access_token))!.scope).toBe("email:read");
  });

  test("scope=email:read at authorize: read only is the one choice, pre-selected, and wider is refused", async () => {
    const { app } = testApp();
    const { html, token } = await flow(app, { scope: "email:read" }, {});
    expect(radios(html)).toEqual(["read*"]);
    expect(html).toContain("is asking to read and search email in your mailbox");
    expect(token!.scope).toBe("email:read");
    const forced = await flow(app, { scope: "email:read" }, { access: "read_write" });
    expect(forced.connect.status).toBe(400);
    expect(await forced.connect.text()).toContain("asked for read-only access");
  });

  test("an unknown access value: 400 form", async () => {
    const { app } = testApp();
    const { connect } = await flow(app, {}, { access: "admin" });
    expect(connect.status).toBe(400);
    expect(await connect.text()).toContain("Choose the access to give");
  });

  test("the rules", () => {
    expect(widestAccess(null)).toBe("read_write");
    expect(widestAccess("email:write")).toBe("read_write");
    expect(widestAccess("email:read")).toBe("read");
    expect(chooseAccess(undefined, "email:read")).toEqual({ ok: true, access: "read" });
    expect(chooseAccess("read", null)).toEqual({ ok: true, access: "read" });
    expect(chooseAccess("read_write", "email:read").ok).toBe(false);
  });
});
