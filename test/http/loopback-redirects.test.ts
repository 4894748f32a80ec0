// The configured client's loopback entries in MAILBOX_MCP_EXTRA_REDIRECT_URIS match any port and any
// loopback name (docs/design.md §3, RFC 8252 §7.3): Claude Code and Codex pick a free port, and Codex says
// 127.0.0.1 where the operator wrote localhost. Everything that is not loopback stays an exact match.
import { describe, expect, test } from "bun:test";
import { testApp } from "../support/app.ts";
import { getHarness } from "../support/harness.ts";
import { authorize, authorizeQuery, newVerifier, obtainCode, postForm, tokenFields } from "../oauth/flow.ts";

const JSON_ACCEPT = { accept: "application/json" };
const LISTED = "http://localhost/callback";

describe("the configured client with http://localhost/callback listed", () => {
  const t = testApp({ extraRedirectUris: [LISTED, "https://app.example/cb"] });
  const status = async (redirect: string) =>
    (await authorize(t.app, authorizeQuery(newVerifier(), { redirect_uri: redirect }), JSON_ACCEPT)).status;

  test.each([
    ["the listed URI itself", LISTED, 200],
    ["on port 49769 (a native app's free port)", "http://localhost:49769/callback", 200],
    ["on 127.0.0.1 and a port (as Codex says it)", "http://127.0.0.1:51234/callback", 200],
    ["on [::1]", "http://[::1]:51234/callback", 200],
    ["a look-alike host", "http://localhost.evil.example/callback", 400],
    ["a look-alike host with a port", "http://localhost.evil.example:49769/callback", 400],
    ["another path", "http://localhost:49769/other", 400],
    ["a longer path", "http://localhost:49769/callback/x", 400],
    ["a query the entry does not have", "http://localhost:49769/callback?x=1", 400],
    ["https to a loopback host with another path", "https://localhost:49769/other", 400],
    ["https to a loopback host with the listed path", "https://localhost/callback", 400],
    ["user info", "http://user@localhost:49769/callback", 400],
    ["a fragment", "http://localhost:49769/callback#x", 400],
    ["the non-loopback entry exactly", "https://app.example/cb", 200],
    ["the non-loopback entry on another port", "https://app.example:8443/cb", 400],
  ])("%s (%s) → %d", async (_what, redirect, expected) => {
    expect(await status(redirect)).toBe(expected);
  });

  test("the contract's own entries stay exact: Inspector's callback on another port is refused", async () => {
    expect(await status("http://localhost:6275/oauth/callback")).toBe(400);
    expect(await status("http://127.0.0.1:6274/oauth/callback")).toBe(400);
  });

  test("without the entry, a loopback URI is refused", async () => {
    const plain = testApp();
    const res = await authorize(plain.app, authorizeQuery(newVerifier(), { redirect_uri: "http://localhost:49769/callback" }), JSON_ACCEPT);
    expect(res.status).toBe(400);
  });

  test("the port used at authorize is the one the token request must repeat", async () => {
    const h = await getHarness();
    const used = "http://127.0.0.1:49769/callback";
    const { code, verifier, location } = await obtainCode(t.app, h, { query: { redirect_uri: used } });
    expect(`${location.origin}${location.pathname}`).toBe(used);
    const wrong = await postForm(t.app, "/oauth/token", tokenFields(code, verifier, { redirect_uri: "http://127.0.0.1:49770/callback" }));
    expect(wrong.status).toBe(400);
    const right = await postForm(t.app, "/oauth/token", tokenFields(code, verifier, { redirect_uri: used }));
    expect(right.status).toBe(200);
  });
});
