// The setup form's send policy (docs/design.md §3 "Send policy") through the real routes: offered
// beside the access choice with "ask for new recipients" checked, stored on the grant, kept when the
// form comes back with an error, refused when unknown, and "never" for a read-only grant whatever
// was submitted. `mailbox-mcp grants` shows it (test/verbs/grants.test.ts).
import { describe, expect, test } from "bun:test";
import { chooseSendPolicy } from "../../src/oauth/setup/send-choice.ts";
import { testApp } from "../support/app.ts";
import { getHarness } from "../support/harness.ts";
import { aliceFields, authorize, authorizeQuery, formIds, newVerifier, postForm, tokenFields, type Handler } from "../oauth/flow.ts";

type Deps = ReturnType<typeof testApp>;

/** authorize (with `query`) → connect (with `fields`) → token; the page, the connect answer and the grant's policy. */
async function flow({ app, grants }: Deps, query: Record<string, string>, fields: Record<string, string>) {
  const h = await getHarness();
  const verifier = newVerifier();
  const html = await (await authorize(app as Handler, authorizeQuery(verifier, query))).text();
  const connect = await postForm(app as Handler, "/oauth/connect", aliceFields(h, formIds(html), fields));
  if (connect.status !== 303) return { html, connect, policy: null };
  const code = new URL(connect.headers.get("location")!).searchParams.get("code")!;
  const token = (await (await postForm(app as Handler, "/oauth/token", tokenFields(code, verifier))).json()) as { access_token: string };
  const record = await grants.findToken(token.access_token);
  return { html, connect, policy: await grants.sendPolicy(record!.grantId) };
}

const radios = (html: string) => [...html.matchAll(/<input type="radio" name="send" value="(\w+)"( checked)?/g)].map((m) => m[1] + (m[2] ? "*" : ""));

describe("the send policy on the setup form", () => {
  test("offered beside the access choice, asking for new recipients checked; no field gives that default", async () => {
    const deps = testApp();
    const { html, policy } = await flow(deps, {}, {});
    expect(radios(html)).toEqual(["new_recipients*", "always", "never", "direct"]);
    expect(html.indexOf('id="send"')).toBeGreaterThan(html.indexOf('id="access"'));
    expect(html).toContain("Ask me before writing to someone new");
    expect(policy).toBe("new_recipients");
  });

  for (const chosen of ["always", "never", "direct", "new_recipients"] as const) {
    test(`send=${chosen} is the grant's policy`, async () => {
      expect((await flow(testApp(), {}, { send: chosen })).policy).toBe(chosen);
    });
  }

  test("a read-only grant sends nothing, whatever was submitted; a read-only request offers no send choice", async () => {
    expect((await flow(testApp(), {}, { access: "read", send: "direct" })).policy).toBe("never");
    expect(radios((await flow(testApp(), { scope: "email:read" }, {})).html)).toEqual([]);
  });

  test("an unknown value: 400 form; the choice made is kept when the form comes back", async () => {
    const { connect } = await flow(testApp(), {}, { send: "sometimes" });
    expect(connect.status).toBe(400);
    expect(await connect.text()).toContain("Choose when the app may send email");
    const again = await flow(testApp(), {}, { send: "always", password: "wrong-password-x" });
    expect(again.connect.status).toBe(401);
    expect(radios(await again.connect.text())).toEqual(["new_recipients", "always*", "never", "direct"]);
  });

  test("the rules", () => {
    expect(chooseSendPolicy(undefined, "read_write")).toEqual({ ok: true, policy: "new_recipients" });
    expect(chooseSendPolicy("", "read_write")).toEqual({ ok: true, policy: "new_recipients" });
    expect(chooseSendPolicy("always", "read")).toEqual({ ok: true, policy: "never" });
    expect(chooseSendPolicy("ALWAYS", "read_write").ok).toBe(false);
  });
});
