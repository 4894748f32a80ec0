// `mailbox-mcp client`: the shortest path per client for the configuration at hand.
import { describe, expect, test } from "bun:test";
import { clientInstructions } from "../src/client-instructions.ts";
import { testConfig } from "./support/app.ts";

const CHATGPT = "https://chatgpt.com/connector_platform_oauth_redirect";

describe("mailbox-mcp client", () => {
  test("registration on: URL alone for Claude Code, no id or secret in its command", () => {
    const text = clientInstructions(testConfig({ baseUrl: "https://mail.example.com", openRegistration: true }));
    expect(text).toContain("Open registration : on");
    expect(text).toContain("claude mcp add --transport http mailbox https://mail.example.com/mcp\n");
    expect(text).not.toContain("--client-id");
    expect(text).toContain("nothing else: Claude registers itself");
    expect(text).toContain(`MAILBOX_MCP_EXTRA_REDIRECT_URIS=${CHATGPT} (not set yet`);
    expect(clientInstructions(testConfig({ openRegistration: true, extraRedirectUris: [CHATGPT] }))).toContain("(already set here)");
  });

  test("registration off: id and secret for Claude.ai; Claude Code is told why it needs registration", () => {
    const text = clientInstructions(testConfig());
    expect(text).toContain("Open registration : off");
    expect(text).toContain("OAuth Client Secret: test-client-secret-0123456789");
    expect(text).toContain("Claude Code: needs open registration");
    expect(text).toContain("does not support dynamic client registration");
  });
});
