// The write pipeline: what src/mcp/server.ts runs around the handler of every tool of kind "write",
// so that a write tool's handler holds only its own work.
//   1. scope: only tokens holding email:write run it;
//   2. the handler runs;
//   3. the call is filed in the owner's activity log, success or failure, before it answers
//      (docs/owner.md §4); a call refused for its scope ran nothing and is not;
//   4. argument errors found by the mail layer (InputError) become ToolInputErrors naming the argument.
// A round that asks the person (input_required, the send gate) has decided nothing yet: it is not
// filed; the round that carries the answer is.
import { isInputRequiredResult, type CallToolResult, type InputRequiredResult } from "@modelcontextprotocol/server";
import { InputError } from "../../../mail/errors.ts";
import { WRITE_SCOPE } from "../../../scopes.ts";
import type { ToolContext } from "../context.ts";
import type { Shape, ToolArgs, WriteTool } from "../define.ts";
import { toolError, ToolInputError } from "../result.ts";
import { activityEntry, type WriteOutcome } from "./activity.ts";

/**
 * The route answers a token without email:write with HTTP 403 + `WWW-Authenticate: Bearer
 * error="insufficient_scope"` before a write call reaches a tool (src/mcp/scope.ts; MCP
 * authorization, scope challenge; RFC 6750 §3.1). This second line of defence runs inside an
 * already-accepted response, so it reports the same error code as a tool error instead.
 */
export async function runWrite<In extends Shape, Out extends Shape>(
  tool: WriteTool<In, Out>, args: ToolArgs<In>, ctx: ToolContext,
): Promise<CallToolResult | InputRequiredResult> {
  if (!ctx.scopes.includes(WRITE_SCOPE)) {
    return toolError(`insufficient_scope: ${tool.name} needs the "${WRITE_SCOPE}" scope, which this access token was not granted. Reconnect the mailbox and grant "${WRITE_SCOPE}".`);
  }
  let result: CallToolResult | InputRequiredResult;
  try {
    result = await tool.handler(args, ctx);
  } catch (err) {
    await record(tool, args, { error: err }, ctx);
    if (err instanceof InputError) throw new ToolInputError(err.message);
    throw err;
  }
  if (isInputRequiredResult(result)) return result;
  await record(tool, args, { result }, ctx);
  return result;
}

/**
 * The call has happened by now (a message may have gone out): a mapping that throws is a bug to
 * log, and the row is still written, with what is known, rather than the answer turned into a failure.
 */
async function record<In extends Shape, Out extends Shape>(tool: WriteTool<In, Out>, args: ToolArgs<In>, outcome: WriteOutcome, ctx: ToolContext): Promise<void> {
  let entry: ReturnType<typeof activityEntry>;
  try {
    entry = activityEntry(tool, args, outcome);
  } catch (err) {
    ctx.log.error("activity mapping failed", { tool: tool.name, error: err instanceof Error ? err.message : String(err) });
    const failed = "error" in outcome || outcome.result.isError === true;
    entry = { tool: tool.name, outcome: failed ? "error" : "ok", details: {} };
  }
  await ctx.recordActivity(entry);
}
