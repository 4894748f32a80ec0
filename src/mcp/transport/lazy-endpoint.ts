// The MCP endpoint, built on the first /mcp request: its module graph (every tool with its schemas,
// the mail layer behind them, the SDK with its servers, transports and protocol schemas) is not held
// by a server that no client has called yet (docs/performance.md "Idle memory"). The runtime
// (connections, sessions, limits, calls in flight) exists from the start: revocation reaches it whether
// or not /mcp has run. The send gate's codecs load the SDK too, so the composition root may hand them
// over as a function, called with the first request.
import type { Sending } from "../confirm/tool-sending.ts";
import type { McpAnswering, McpEndpoint, McpEndpointDeps } from "./endpoint.ts";

export type LazyEndpointDeps = Omit<McpEndpointDeps, "sending"> & { sending: Sending | (() => Promise<Sending>) };

export function lazyEndpoint(deps: LazyEndpointDeps): McpAnswering {
  let built: Promise<McpEndpoint> | undefined;
  const build = async () => {
    const [{ McpEndpoint }, sending] = await Promise.all([
      import("./endpoint.ts"), typeof deps.sending === "function" ? deps.sending() : deps.sending,
    ]);
    return new McpEndpoint({ ...deps, sending });
  };
  const endpoint = () => (built ??= build());
  return {
    runtime: deps.runtime,
    answer: async (request, caller, body) => (await endpoint()).answer(request, caller, body),
  };
}
