// The checks a list of tools must pass before any of them is served: refused when the list is
// built (./index.ts, at start), so a half-declared tool never reaches a client. The types of
// ./define.ts catch the same mistakes in typed code; these catch what a cast lets through.
import type { ToolDef } from "./define.ts";

/** A tool as the registry holds it, whatever its schemas. */
export type AnyTool = ToolDef<any, any>;

const HINTS = ["destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** A tool as this file reads it: what a cast or plain JavaScript may have left out. */
interface Unchecked {
  name?: unknown;
  kind?: unknown;
  audience?: unknown;
  config?: { title?: unknown; annotations?: Record<string, unknown>; _meta?: { ui?: { visibility?: unknown } } };
  activity?: { fromArgs?: unknown; fromResult?: unknown };
}

/** What is wrong with one tool, in words naming it; empty when nothing is. */
function problemsOf(def: AnyTool): string[] {
  const tool = def as unknown as Unchecked; // checked as data: the types may have been cast away
  const name = typeof tool.name === "string" && tool.name ? tool.name : "(a tool without a name)";
  if (tool.kind !== "read" && tool.kind !== "write") return [`${name}: kind must be "read" or "write", not ${JSON.stringify(tool.kind)}`];
  const annotations = tool.config?.annotations ?? {};
  const problems: string[] = [];
  const readOnly = tool.kind === "read";
  if (annotations.readOnlyHint !== readOnly) {
    problems.push(`${name}: a ${tool.kind} tool must have annotations.readOnlyHint ${readOnly}, not ${JSON.stringify(annotations.readOnlyHint)}`);
  }
  if ("title" in annotations && annotations.title !== tool.config?.title) {
    problems.push(`${name}: annotations.title is copied from the tool's title; do not set it apart`);
  }
  if (tool.kind === "write") {
    if (typeof tool.activity?.fromArgs !== "function" || typeof tool.activity.fromResult !== "function") {
      problems.push(`${name}: a write tool needs activity.fromArgs and activity.fromResult, what the owner's activity log keeps of its calls (docs/owner.md §4)`);
    }
    const unstated = HINTS.filter((h) => typeof annotations[h] !== "boolean");
    if (unstated.length) problems.push(`${name}: a write tool must state ${unstated.join(", ")} (true or false)`);
  } else if (tool.activity !== undefined) {
    problems.push(`${name}: a read tool has no activity mapping (reads are not logged, docs/owner.md §4)`);
  }
  const visibility = tool.config?._meta?.ui?.visibility;
  const appOnly = Array.isArray(visibility) && visibility.length === 1 && visibility[0] === "app";
  if ((tool.audience === "app") !== appOnly) {
    problems.push(`${name}: audience "app" and _meta.ui.visibility ["app"] go together (a tool for an MCP App, hidden from the model)`);
  }
  return problems;
}

/** The tools in tools/list order, once every check passes; otherwise throws listing every problem. */
export function toolRegistry(tools: AnyTool[]): readonly AnyTool[] {
  const problems = tools.flatMap(problemsOf);
  const seen = new Set<string>();
  for (const { name } of tools) {
    if (seen.has(name)) problems.push(`${name}: listed twice (tool names must be unique)`);
    seen.add(name);
  }
  if (problems.length) throw new Error(`The tool registry refuses to start:\n  ${problems.join("\n  ")}`);
  return Object.freeze([...tools]);
}
