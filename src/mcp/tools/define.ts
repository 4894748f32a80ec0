// What a tool file declares: one `defineTool({...})` value (the contract is at the top of ./index.ts).
import type { CallToolResult, InputRequiredResult } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { ActivityDetails } from "../../store/activity.ts";
import type { ReadAnnotations, WriteAnnotations } from "./annotations.ts";
import type { ToolContext } from "./context.ts";

export type Shape = z.ZodRawShape;

/** A call's arguments as the handler gets them: checked against inputSchema, defaults filled in. */
export type ToolArgs<In extends Shape> = z.output<z.ZodObject<In>>;

/** A successful call's structuredContent, as outputSchema describes it. */
export type ToolOutput<Out extends Shape> = z.output<z.ZodObject<Out>>;

export interface ToolConfig<In extends Shape, Out extends Shape, Annotations> {
  /** Shown to people choosing or approving a call; also sent as annotations.title. */
  title: string;
  /** Written for a model: what the tool does, when to use it, what comes back. */
  description: string;
  inputSchema: In;
  outputSchema: Out;
  annotations: Annotations;
  /**
   * The tool's `_meta` in tools/list, e.g. the MCP Apps extension's `ui` (the review card a host
   * renders with the result: src/mcp/confirm/review-card.ts).
   */
  _meta?: Record<string, unknown>;
}

interface ToolBase<In extends Shape, Result = CallToolResult> {
  /** The tool's name on the wire: written here and nowhere else. */
  name: string;
  /**
   * The tool's own work. For a write tool the pipeline (./pipeline/write.ts) runs around it, and it
   * may answer input_required (the send gate asking the person: on 2026-07-28 as is, on a 2025-era
   * session the SDK turns it into elicitation/create).
   */
  handler: (args: ToolArgs<In>, ctx: ToolContext) => Promise<Result>;
  /**
   * "app": listed and callable only for clients that render MCP Apps (they declared the UI
   * extension), and marked visible to the app alone, so hosts keep it from the model
   * (io.modelcontextprotocol/ui `visibility: ["app"]`). Default: every client.
   */
  audience?: "app";
}

/** A tool that only reads: no scope beyond email:read, no activity row. */
export interface ReadTool<In extends Shape = Shape, Out extends Shape = Shape> extends ToolBase<In> {
  kind: "read";
  config: ToolConfig<In, Out, ReadAnnotations>;
}

/**
 * What the owner's activity log keeps of a write call (docs/owner.md §4): folders, uids,
 * recipients, Message-IDs. Never a subject, a body or an attachment.
 */
export interface ActivityMapping<In extends Shape, Out extends Shape> {
  /** What the arguments say the call was about; kept whether the call succeeds or fails. */
  fromArgs(args: ToolArgs<In>): ActivityDetails;
  /** What a successful result adds: where a message went, new uids, its Message-ID. */
  fromResult(structured: ToolOutput<Out>): ActivityDetails;
}

/** A tool that changes the mailbox or sends: needs email:write, and every call that runs is logged. */
export interface WriteTool<In extends Shape = Shape, Out extends Shape = Shape> extends ToolBase<In, CallToolResult | InputRequiredResult> {
  kind: "write";
  config: ToolConfig<In, Out, WriteAnnotations>;
  activity: ActivityMapping<In, Out>;
}

export type ToolDef<In extends Shape = Shape, Out extends Shape = Shape> = ReadTool<In, Out> | WriteTool<In, Out>;

type Kind = ToolDef["kind"];

/** The definition type of a tool of kind K. */
type ToolOfKind<K extends Kind, In extends Shape, Out extends Shape> = K extends "write" ? WriteTool<In, Out> : ReadTool<In, Out>;

/**
 * Identity function that lets TypeScript infer `args` (and the activity mapping's types) from the
 * schemas, and check the rest against the tool's kind.
 */
export function defineTool<K extends Kind, In extends Shape, Out extends Shape>(def: ToolOfKind<K, In, Out> & { kind: K }): ToolOfKind<K, In, Out> {
  return def;
}
