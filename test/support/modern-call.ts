// One 2026-07-28 tools/call over raw HTTP, as a conforming client sends it (the `_meta` envelope and
// the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers), and its JSON-RPC answer whether it came
// as JSON or as one SSE event. For tests that must control a call the SDK client would manage itself:
// cutting its response, replaying or altering a requestState.
import { rpcMessages } from "./rpc-body.ts";

export const MODERN = "2026-07-28";

export interface ModernCall {
  url: string;
  token: string;
  tool: string;
  args: Record<string, unknown>;
  /** More params beside name and arguments: inputResponses, requestState. */
  extra?: Record<string, unknown>;
  capabilities?: Record<string, unknown>;
  signal?: AbortSignal;
}

export function postTool(c: ModernCall): Promise<Response> {
  return fetch(c.url, {
    method: "POST", signal: c.signal,
    headers: {
      authorization: `Bearer ${c.token}`, "content-type": "application/json", accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": c.tool,
    },
    body: JSON.stringify({
      jsonrpc: "2.0", id: 1, method: "tools/call",
      params: {
        name: c.tool, arguments: c.args, ...c.extra,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": c.capabilities ?? {},
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
        },
      },
    }),
  });
}

export interface Rpc {
  result?: { structuredContent?: Record<string, unknown>; isError?: boolean; content?: Array<{ text?: string }>; [k: string]: unknown };
  error?: { code: number; message: string };
}

/** The JSON-RPC answer of a POST. */
export async function rpcOf(res: Response): Promise<Rpc> {
  return rpcMessages<Rpc>(await res.text()).at(-1)!;
}

/** A tool result's text blocks. */
export const textOfRpc = (r: Rpc) => (r.result?.content ?? []).map((c) => c.text ?? "").join("\n");
