// A real listening server (src/http/serve.ts on a free port) and the official SDK client talking to
// it over Streamable HTTP with a Bearer token, as Claude or MCP Inspector would.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../../src/config.ts";
import { serve } from "../../src/http/serve.ts";
import { silentLogger } from "../../src/log.ts";
import { testDeps, type TestOverrides } from "./app.ts";
import { freePort } from "./dovecot.ts";

export type TestDeps = ReturnType<typeof testDeps>;

export interface TestServer {
  deps: TestDeps;
  baseUrl: string;
  mcpUrl: string;
  stop(): Promise<void>;
}

export async function startTestServer(
  opts: TestOverrides & { config?: Partial<Config> } = {},
): Promise<TestServer> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const { config, ...overrides } = opts;
  const deps = testDeps({ baseUrl, port, ...config }, overrides);
  const server = serve(deps.app, { hostname: "127.0.0.1", port, log: silentLogger, idleSeconds: deps.timeouts.idleSeconds });
  return {
    deps,
    baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
    async stop() {
      await deps.runtime.close();
      await server.stop(true);
    },
  };
}

/** An initialized SDK client session using `token`. */
export async function connectClient(mcpUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: "mailbox-mcp-tests", version: "0.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool; returns the whole result (structuredContent, content, isError). */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Calls a tool that must succeed; returns its structuredContent. */
export async function callOk<T = any>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const res = await call(client, name, args);
  if (res.isError) throw new Error(`${name} failed: ${textOf(res)}`);
  return res.structuredContent as T;
}

/** The text blocks of a tool result (v1 or v2 client types alike). */
export function textOf(res: { content: Array<{ type: string; text?: string }> }): string {
  return res.content.map((c) => (c.type === "text" ? c.text ?? "" : "")).join("\n");
}
