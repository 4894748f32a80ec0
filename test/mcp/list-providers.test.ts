// list_providers is built with the server's provider sign-ins (src/mcp/tools/read/list-providers.ts) and
// builds its list once: the same answer on every call, its own sign-in providers first, and nothing a caller can change.
import { describe, expect, test } from "bun:test";
import { PROVIDERS } from "../../src/mail/providers/presets.ts";
import type { OAuthProviderInfo } from "../../src/oauth/provider-sign-in/provider.ts";
import type { ToolContext } from "../../src/mcp/tools/context.ts";
import { listProvidersTool } from "../../src/mcp/tools/read/list-providers.ts";

const microsoft: OAuthProviderInfo = {
  id: "microsoft", name: "Microsoft", label: "Microsoft (Outlook.com)", notes: "Sign in at Microsoft.",
  imap: { host: "outlook.office365.com", port: 993, security: "tls" }, smtp: { host: "smtp.office365.com", port: 587, security: "starttls" },
};

/** Calls list_providers; the context is not read: the tool has what it lists from when it was built. */
async function list(tool: ReturnType<typeof listProvidersTool>) {
  const result = await tool.handler({}, {} as ToolContext);
  const structured = result.structuredContent as { providers: Array<{ id: string; auth: string }> };
  return { ids: structured.providers.map((p) => p.id), providers: structured.providers, text: (result.content[0] as { text: string }).text };
}

describe("list_providers", () => {
  test("every call answers alike, for the same sign-in providers", async () => {
    const tool = listProvidersTool([microsoft]);
    const first = await list(tool);
    const second = await list(tool);
    expect(second).toEqual(first);
    expect(first.ids).toEqual(["microsoft", ...PROVIDERS.map((p) => p.id)]);
    expect(first.providers[0]!.auth).toBe("oauth");
    expect(first.text.split("\n")[0]).toBe("microsoft: Microsoft (Outlook.com) (IMAP outlook.office365.com:993). Sign in at Microsoft.");
  });

  test("each list of sign-in providers gets its own answer", async () => {
    expect((await list(listProvidersTool([microsoft]))).ids[0]).toBe("microsoft");
    expect((await list(listProvidersTool([]))).ids).toEqual(PROVIDERS.map((p) => p.id));
  });

  test("the shared answer cannot be changed by whoever holds it", async () => {
    const tool = listProvidersTool([microsoft]);
    const { providers } = await list(tool);
    expect(() => { (providers[0] as { id: string }).id = "changed"; }).toThrow();
    expect(() => (providers as unknown as unknown[]).push({})).toThrow();
    expect((await list(tool)).ids[0]).toBe("microsoft");
  });
});
