// The owner's activity log row of one write call (docs/owner.md §4): what the tool's activity
// mapping says it touched, and how it ended. Never a subject, a body or an attachment.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { InputError, MailError } from "../../../mail/errors.ts";
import type { ActivityEntry } from "../../../store/activity.ts";
import type { Shape, ToolArgs, ToolOutput, WriteTool } from "../define.ts";
import { BusyError, ToolInputError } from "../result.ts";

export type WriteOutcome = { result: CallToolResult } | { error: unknown };

/** The first line of what the caller was told; an unexpected error is "internal error", as the caller saw it. */
function errorLine(err: unknown): string {
  const known = err instanceof MailError || err instanceof InputError || err instanceof ToolInputError || err instanceof BusyError;
  return known ? firstLine((err as Error).message) : "internal error";
}

const firstLine = (text: string) => text.split("\n")[0]!.slice(0, 300);

export function activityEntry<In extends Shape, Out extends Shape>(
  tool: WriteTool<In, Out>, args: ToolArgs<In>, outcome: WriteOutcome,
): Omit<ActivityEntry, "grantId"> {
  const details = tool.activity.fromArgs(args);
  if ("error" in outcome) return { tool: tool.name, outcome: "error", details: { ...details, error: errorLine(outcome.error) } };
  const { result } = outcome;
  if (result.isError) {
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join(" ");
    return { tool: tool.name, outcome: "error", details: { ...details, error: firstLine(text) } };
  }
  const structured = (result.structuredContent ?? {}) as ToolOutput<Out>;
  return { tool: tool.name, outcome: "ok", details: { ...details, ...tool.activity.fromResult(structured) } };
}
