// One guide for `mailbox-mcp client` (with the secret) and the front door (without).
import { describe, expect, test } from "bun:test";
import { connectGuide, guideText, type GuideSettings } from "../../src/views/connect-guide.ts";
import { FrontDoor } from "../../src/views/front-door.tsx";
import { parseAllowedMailboxes, type AllowedMailboxes } from "../../src/allowed-mailboxes.ts";
import { testApp } from "../support/app.ts";

const settings = (over: Partial<GuideSettings> = {}): GuideSettings =>
  ({ baseUrl: "https://m.example", clientId: "cid", clientSecret: "s3cret-value-0123456789", openRegistration: false, extraRedirectUris: [], ...over });
const CHATGPT = "https://chatgpt.com/connector_platform_oauth_redirect";

describe("connect guide", () => {
  test("the client text carries the secret everywhere it is needed; Inspector 2.x's Settings ▸ OAuth Settings", () => {
    const text = guideText(connectGuide(settings()));
    expect(text).toContain("Client secret     : s3cret-value-0123456789");
    expect(text).toContain("OAuth Client Secret: s3cret-value-0123456789");
    expect(text).toContain("Under Settings ▸ OAuth Settings (Inspector 1.x: Authentication) set Client ID cid and Client Secret s3cret-value-0123456789.");
    expect(text).not.toContain("`");
  });

  test("without the secret: a placeholder and where to get it; HTML escaped", () => {
    const guide = connectGuide(settings({ clientId: "cid<&>", clientSecret: null }));
    const html = FrontDoor({ nonce: "n", version: "1", healthUrl: "https://m.example/health", guide });
    expect(html).toContain("OAuth Client Secret: <code>&lt;client secret&gt;</code>");
    expect(html).toContain("<code>mailbox-mcp client</code> on the server");
    expect(html).toContain("cid&lt;&amp;&gt;");
    expect(html).not.toContain("cid<&>");
  });

  test("registration on: URL alone for Claude Code, no id or secret in its command", () => {
    const text = guideText(connectGuide(settings({ baseUrl: "https://mail.example.com", openRegistration: true })));
    expect(text).toContain("Open registration : on");
    expect(text).toContain("claude mcp add --transport http mailbox https://mail.example.com/mcp,");
    expect(text).not.toContain("--client-id");
    expect(text).toContain("nothing else: Claude registers itself");
    expect(text).toContain(`MAILBOX_MCP_EXTRA_REDIRECT_URIS=${CHATGPT} (not set yet`);
    expect(guideText(connectGuide(settings({ openRegistration: true, extraRedirectUris: [CHATGPT] })))).toContain("(already set here)");
  });

  test("registration off: id and secret for Claude.ai; Claude Code is told why it needs registration", () => {
    const text = guideText(connectGuide(settings()));
    expect(text).toContain("Open registration : off");
    expect(text).toContain("Claude Code: needs open registration");
    expect(text).toContain("does not support dynamic client registration");
  });

  test("whose mailboxes: in the client text for the owner, never on the public front door; registration needs the list", async () => {
    const allowedMailboxes = parseAllowedMailboxes("me@example.com,@example.org") as AllowedMailboxes;
    const text = guideText(connectGuide(settings({ openRegistration: true, allowedMailboxes })));
    expect(text).toContain("Mailboxes allowed : me@example.com, @example.org");
    expect(guideText(connectGuide(settings({ openRegistration: true, allowedMailboxes: null })))).toContain("Mailboxes allowed : not set: serve refuses to start");
    const off = guideText(connectGuide(settings({ allowedMailboxes: null })));
    expect(off).toContain("--open-registration and MAILBOX_MCP_ALLOWED_MAILBOXES");
    const { app } = testApp({ openRegistration: true, allowedMailboxes });
    for (const accept of ["text/html", "application/json"]) {
      const page = await (await app.handle(new Request("http://localhost/", { headers: { accept } }))).text();
      expect(page).toContain("/mcp");
      expect(page).not.toContain("example.org");
    }
  });
});

describe("sign-in providers in the guide", () => {
  test("named with the redirect URI their registrations need; none: says how to get Microsoft", () => {
    const on = guideText(connectGuide(settings({ signInProviders: ["Microsoft (Outlook.com, Hotmail, Live, Microsoft 365)"] })));
    expect(on).toContain("Sign in at        : Microsoft (Outlook.com, Hotmail, Live, Microsoft 365)");
    expect(on).toContain("must allow the redirect URI https://m.example/oauth/upstream/callback");
    const off = guideText(connectGuide(settings()));
    expect(off).toContain("Sign in at        : no provider (app passwords only)");
    expect(off).toContain("MAILBOX_MCP_MICROSOFT_CLIENT_ID");
    const page = FrontDoor({ nonce: "n", version: "1", healthUrl: "https://m.example/health", guide: connectGuide(settings({ signInProviders: ["Google <x>"] })) });
    expect(page).toContain("Google &lt;x&gt;");
    expect(page).toContain("<code>https://m.example/oauth/upstream/callback</code>");
  });
});
