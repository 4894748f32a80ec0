// The MCP endpoint, built on the first /mcp request: its module graph (every tool with its schemas,
// the mail layer behind them, the SDK with its servers, transports and protocol schemas) is not held
// by a server that no client has called yet (docs/performance.md "Idle memory"). The runtime
// (connections, sessions, limits, calls in flight) exists from the start: revocation reaches it whether
// or not /mcp has run. The tools and the send gate's codecs load that graph too, so the composition
// root (src/composition.ts) hands them over as functions, called with the first request.
import type { Sending } from "../confirm/tool-sending.ts";
import type { AnyTool } from "../tools/index.ts";
import type { McpAnswering, McpEndpoint, McpEndpointDeps } from "./endpoint.ts";

/** A part given as it is, or as the function that loads and builds it. */
type Later<T> = T | (() => Promise<T>);

export type LazyEndpointDeps = Omit<McpEndpointDeps, "sending" | "tools"> & { sending: Later<Sending>; tools: Later<readonly AnyTool[]> };

const now = <T>(part: Later<T>): T | Promise<T> => (typeof part === "function" ? (part as () => Promise<T>)() : part);

export function lazyEndpoint(deps: LazyEndpointDeps): McpAnswering {
  let built: Promise<McpEndpoint> | undefined;
  const build = async () => {
    const [{ McpEndpoint }, sending, tools] = await Promise.all([import("./endpoint.ts"), now(deps.sending), now(deps.tools)]);
    return new McpEndpoint({ ...deps, sending, tools });
  };
  const endpoint = () => (built ??= build());
  return {
    runtime: deps.runtime,
    answer: async (request, caller, body) => (await endpoint()).answer(request, caller, body),
  };
}
