// The MCP endpoint, built on the first /mcp request: its module graph (every tool with its schemas,
// the mail layer behind them, the SDK's servers and transports, ~10 MB) is not held by a server that
// no client has called yet (docs/performance.md "Idle memory"). The runtime (connections, sessions,
// limits, calls in flight) exists from the start: revocation reaches it whether or not /mcp has run.
import type { McpAnswering, McpEndpoint, McpEndpointDeps } from "./endpoint.ts";

export function lazyEndpoint(deps: McpEndpointDeps): McpAnswering {
  let built: Promise<McpEndpoint> | undefined;
  const endpoint = () => (built ??= import("./endpoint.ts").then(({ McpEndpoint }) => new McpEndpoint(deps)));
  return {
    runtime: deps.runtime,
    answer: async (request, caller, body) => (await endpoint()).answer(request, caller, body),
  };
}
