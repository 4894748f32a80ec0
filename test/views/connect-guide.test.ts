// One guide for `mailbox-mcp client` (with the secret) and the front door (without).
import { describe, expect, test } from "bun:test";
import { connectGuide, guideText } from "../../src/views/connect-guide.ts";
import { FrontDoor } from "../../src/views/front-door.tsx";

describe("connect guide", () => {
  test("the client text carries the secret everywhere it is needed; Inspector 2.x's Settings ▸ OAuth Settings", () => {
    const text = guideText(connectGuide("https://m.example", "cid", "s3cret-value-0123456789"));
    expect(text).toContain("Client secret  : s3cret-value-0123456789");
    expect(text).toContain("MCP_CLIENT_SECRET='s3cret-value-0123456789' claude mcp add");
    expect(text).toContain("Under Settings ▸ OAuth Settings (Inspector 1.x: Authentication) set Client ID cid and Client Secret s3cret-value-0123456789.");
    expect(text).not.toContain("`");
  });

  test("without the secret: a placeholder and where to get it; HTML escaped", () => {
    const guide = connectGuide("https://m.example", "cid<&>", null);
    const html = FrontDoor({ nonce: "n", version: "1", healthUrl: "https://m.example/health", guide });
    expect(html).toContain("MCP_CLIENT_SECRET=&#x27;&lt;client secret&gt;&#x27;");
    expect(html).toContain("<code>mailbox-mcp client</code> on the server");
    expect(html).toContain("cid&lt;&amp;&gt;");
    expect(html).not.toContain("cid<&>");
  });
});
