// Building tool results. Every tool (read and write) goes through these so results look alike:
// structuredContent for programs, one readable text block for the model.
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { Logger } from "../../log.ts";
import { InputError, MailError } from "../../mail/errors.ts";

/** An argument problem the zod schema cannot express (e.g. "give at least one of ..."). Name the argument. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

/**
 * A per-token limit of this server was reached (concurrent calls, attachments in flight): nothing
 * was done, and the same call can succeed once the token's other calls finish. Say which limit.
 */
export class BusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BusyError";
  }
}

/** A successful result: `structured` must match the tool's outputSchema. */
export function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/** A failed call the model can read and act on (MCP `isError: true`, not a protocol error). */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * Any throw from a handler becomes an isError result. Known errors carry messages written for the
 * caller; anything else is logged and hidden, because it may carry internals.
 */
export function errorResult(err: unknown, tool: string, log: Logger): CallToolResult {
  // The mail layer's InputError (an argument only the server could judge) reads like ours.
  if (err instanceof ToolInputError || err instanceof InputError) return toolError(`Invalid arguments for ${tool}: ${err.message}`);
  if (err instanceof MailError || err instanceof BusyError) return toolError(err.message);
  log.error("tool failed", { tool, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  return toolError(`${tool} failed with an internal error. Try again; if it persists, reconnect the mailbox.`);
}
