// The SDK's v2 client (@modelcontextprotocol/client) against a real server, in each of its
// protocol negotiation modes: "legacy" (the 2025 initialize handshake and a session, the default),
// a pin to 2026-07-28 (server/discover, no session), and "auto" (probe with server/discover, fall
// back to initialize). The v1 client of ./mcp-client.ts stays for the tests written with it.
import { Client, StreamableHTTPClientTransport, type CallToolResult, type VersionNegotiationMode } from "@modelcontextprotocol/client";

export const MODERN = "2026-07-28";

export const MODES: Array<{ name: string; mode: VersionNegotiationMode }> = [
  { name: "legacy", mode: "legacy" },
  { name: `pinned to ${MODERN}`, mode: { pin: MODERN } },
  { name: "auto", mode: "auto" },
];

export async function connectV2(mcpUrl: string, token: string, mode: VersionNegotiationMode): Promise<Client> {
  const client = new Client({ name: "mailbox-mcp-tests-v2", version: "0.0.0" }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool that must succeed; returns its structuredContent. */
export async function callOkV2<T = any>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (res.isError) throw new Error(`${name} failed: ${res.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")}`);
  return res.structuredContent as T;
}

/** The Mcp-Session-Id the client holds, if its era has one. */
export const sessionIdOf = (client: Client) => (client.transport as StreamableHTTPClientTransport | undefined)?.sessionId;
