// The JSON-RPC messages of a /mcp answer body, whichever way the server sent it: a finished answer of
// one message comes as `application/json`, anything streamed as SSE `data:` lines
// (src/mcp/transport/rpc-body.ts; MCP Streamable HTTP lets the server choose, and clients take both).
export function rpcMessages<T = any>(text: string): T[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) return [JSON.parse(trimmed) as T];
  if (trimmed.startsWith("[")) return JSON.parse(trimmed) as T[];
  return text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6).map((l) => JSON.parse(l.slice(6)) as T);
}
