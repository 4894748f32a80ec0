// One guide for `mailbox-mcp client` (with the secret) and the front door (without).
import { describe, expect, test } from "bun:test";
import { connectGuide, guideText, type GuideSettings } from "../../src/views/connect-guide.ts";
import { FrontDoor } from "../../src/views/front-door.tsx";
import { parseAllowedMailboxes, type AllowedMailboxes } from "../../src/allowed-mailboxes.ts";
import { testApp } from "../support/app.ts";

const settings = (over: Partial<GuideSettings> = {}): GuideSettings =>
  ({ baseUrl: "https://m.example", clientId: "cid", clientSecret: "s3cret-value-0123456789", openRegistration: false, clientMetadataDocuments: false, extraRedirectUris: [], ...over });
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

  test("registration off: the configured client for Claude Code, Codex CLI and Gemini CLI, and the callbacks they need", () => {
    const text = guideText(connectGuide(settings({ baseUrl: "https://mail.example.com" })));
    expect(text).toContain("Open registration : off");
    expect(text).not.toContain("needs open registration");
    const mcp = "https://mail.example.com/mcp";
    expect(text).toContain(`MCP_CLIENT_SECRET=s3cret-value-0123456789 claude mcp add --transport http --client-id cid --client-secret mailbox ${mcp}`);
    expect(text).toContain(`codex mcp add mailbox --url ${mcp} --oauth-client-id cid --oauth-client-secret s3cret-value-0123456789`);
    expect(text).toContain(`gemini mcp add --transport http mailbox ${mcp}`);
    expect(text).toContain('"oauth": {"enabled": true, "clientId": "cid", "clientSecret": "s3cret-value-0123456789"}');
    expect(text).toContain("http://localhost/callback must be in MAILBOX_MCP_EXTRA_REDIRECT_URIS (not set yet: add http://localhost/callback");
    expect(text).toContain("http://localhost/oauth/callback must be in MAILBOX_MCP_EXTRA_REDIRECT_URIS (not set yet");
    // A loopback entry on any port or loopback name already covers them.
    const set = guideText(connectGuide(settings({ extraRedirectUris: ["http://127.0.0.1:9999/callback", "http://localhost/oauth/callback"] })));
    expect(set).not.toContain("not set yet");
    expect(set.match(/\(already set here\)/g)).toHaveLength(3);
  });

  test("registration on: Codex CLI and Gemini CLI need only the URL; metadata documents add their note", () => {
    const text = guideText(connectGuide(settings({ openRegistration: true, clientMetadataDocuments: true })));
    expect(text).toContain("codex mcp add mailbox --url https://m.example/mcp:");
    expect(text).toContain("/mcp auth mailbox in Gemini CLI");
    expect(text).not.toContain("--oauth-client-id");
    expect(text).toContain("Metadata documents: on");
    expect(text).toContain("https://claude.ai/oauth/claude-code-client-metadata");
    expect(guideText(connectGuide(settings()))).toContain("Metadata documents: off");
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
