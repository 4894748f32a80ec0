// The tool registry refuses a half-declared tool at start (src/mcp/tools/registry.ts), and the write
// pipeline (src/mcp/tools/pipeline/write.ts) runs around every write tool: scope, activity row,
// argument errors. No servers needed: tools here are built in the test and never reach a mailbox.
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { memoryLogger } from "../../src/log.ts";
import { InputError } from "../../src/mail/errors.ts";
import { missingScope } from "../../src/mcp/scope.ts";
import { READ_ONLY } from "../../src/mcp/tools/annotations.ts";
import type { ToolContext } from "../../src/mcp/tools/context.ts";
import { defineTool } from "../../src/mcp/tools/define.ts";
import { TOOLS } from "../../src/mcp/tools/index.ts";
import { runWrite } from "../../src/mcp/tools/pipeline/write.ts";
import { toolRegistry, type AnyTool } from "../../src/mcp/tools/registry.ts";
import { ok, ToolInputError } from "../../src/mcp/tools/result.ts";
import type { ActivityEntry } from "../../src/store/activity.ts";
import { READ_SCOPE, WRITE_SCOPE } from "../../src/scopes.ts";

const WRITE_HINTS = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const flagTool = defineTool({
  name: "flag_test",
  kind: "write",
  config: {
    title: "Flag (test)", description: "A write tool for these tests.",
    inputSchema: { folder: z.string(), uids: z.array(z.number()) }, outputSchema: { flagged: z.number() },
    annotations: WRITE_HINTS,
  },
  activity: { fromArgs: (args) => ({ folder: args.folder, uids: args.uids }), fromResult: (res) => ({ uids: [res.flagged] }) },
  handler: async (args) => ok({ flagged: args.uids.length }, "flagged"),
});

const readTool = defineTool({
  name: "read_test",
  kind: "read",
  config: { title: "Read (test)", description: "A read tool for these tests.", inputSchema: {}, outputSchema: {}, annotations: READ_ONLY },
  handler: async () => ok({}, "read"),
});

/** A copy of `tool` changed as a cast or plain JavaScript could hand it to the registry; `tool` stays as it is. */
const altered = (tool: AnyTool, change: (t: any) => void): AnyTool => {
  const copy: any = { ...tool, config: { ...tool.config, annotations: { ...tool.config.annotations } } };
  if ("activity" in tool) copy.activity = { ...tool.activity };
  change(copy);
  return copy;
};

describe("the registry refuses", () => {
  test("the server's own tools pass, in their order", () => {
    expect(toolRegistry([...TOOLS]).map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
  });

  test("a write tool without an activity mapping", () => {
    expect(() => toolRegistry([readTool, altered(flagTool, (t) => delete t.activity)])).toThrow(
      "flag_test: a write tool needs activity.fromArgs and activity.fromResult",
    );
    expect(() => toolRegistry([altered(flagTool, (t) => delete t.activity.fromResult)])).toThrow("flag_test: a write tool needs activity");
  });

  test("a write tool whose readOnlyHint is true, or missing", () => {
    expect(() => toolRegistry([altered(flagTool, (t) => (t.config.annotations.readOnlyHint = true))])).toThrow(
      "flag_test: a write tool must have annotations.readOnlyHint false, not true",
    );
    expect(() => toolRegistry([altered(flagTool, (t) => delete t.config.annotations.readOnlyHint)])).toThrow("readOnlyHint false, not undefined");
  });

  test("a read tool whose readOnlyHint is not true, or that has an activity mapping", () => {
    expect(() => toolRegistry([altered(readTool, (t) => (t.config.annotations.readOnlyHint = false))])).toThrow(
      "read_test: a read tool must have annotations.readOnlyHint true, not false",
    );
    expect(() => toolRegistry([altered(readTool, (t) => (t.activity = flagTool.activity))])).toThrow("read_test: a read tool has no activity mapping");
  });

  test("a write tool that leaves a hint for the client to guess", () => {
    expect(() => toolRegistry([altered(flagTool, (t) => delete t.config.annotations.destructiveHint)])).toThrow(
      "flag_test: a write tool must state destructiveHint (true or false)",
    );
  });

  test("a tool without a kind, and an annotations.title other than the title", () => {
    expect(() => toolRegistry([altered(readTool, (t) => delete t.kind)])).toThrow('read_test: kind must be "read" or "write", not undefined');
    expect(() => toolRegistry([altered(readTool, (t) => (t.config.annotations.title = "Other"))])).toThrow("read_test: annotations.title");
  });

  test("a name listed twice", () => {
    expect(() => toolRegistry([readTool, flagTool, altered(readTool, () => {})])).toThrow("read_test: listed twice");
  });

  test("every problem at once, in one message", () => {
    const bad = altered(flagTool, (t) => { delete t.activity; t.config.annotations.readOnlyHint = true; });
    expect(() => toolRegistry([bad, bad])).toThrow(/refuses to start:\n {2}flag_test: a write tool must have .*\n {2}flag_test: a write tool needs activity[^]*flag_test: listed twice/);
  });

  test("the types refuse the same tools before the registry sees them", () => {
    // Each @ts-expect-error fails `bun run typecheck` if the types stop refusing the tool.
    const { activity: _, ...withoutActivity } = flagTool;
    // @ts-expect-error a write tool needs `activity`
    defineTool(withoutActivity);
    // @ts-expect-error a write tool's readOnlyHint is false
    defineTool({ ...flagTool, config: { ...flagTool.config, annotations: { ...WRITE_HINTS, readOnlyHint: true } } });
    // @ts-expect-error a read tool's readOnlyHint is true
    defineTool({ ...readTool, config: { ...readTool.config, annotations: { ...READ_ONLY, readOnlyHint: false } } });
    // @ts-expect-error fromResult gets the tool's own output: there is no `moved` in it
    defineTool({ ...flagTool, activity: { fromArgs: flagTool.activity.fromArgs, fromResult: (res) => ({ moved: res.moved }) } });
  });
});

describe("the /mcp scope check follows kind", () => {
  test("every write tool, and only those, needs email:write", () => {
    for (const tool of TOOLS) {
      const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool.name, arguments: {} } };
      expect([tool.name, missingScope(message, [READ_SCOPE])]).toEqual([tool.name, tool.kind === "write" ? WRITE_SCOPE : null]);
    }
  });
});

describe("the write pipeline", () => {
  const context = (scopes = [READ_SCOPE, WRITE_SCOPE]) => {
    const rows: Array<Omit<ActivityEntry, "grantId">> = [];
    const log = memoryLogger();
    const ctx = { scopes, log, recordActivity: async (entry) => void rows.push(entry) } as Partial<ToolContext> as ToolContext;
    return { ctx, rows, log };
  };
  const run = (tool: typeof flagTool, ctx: ToolContext) => runWrite(tool, { folder: "INBOX", uids: [4, 5] }, ctx);

  test("runs the handler and files the row its mapping makes, under the tool's name", async () => {
    const { ctx, rows } = context();
    const res = await run(flagTool, ctx);
    expect(res.structuredContent).toEqual({ flagged: 2 });
    expect(rows).toEqual([{ tool: "flag_test", outcome: "ok", details: { folder: "INBOX", uids: [2] } }]);
  });

  test("without email:write, answers insufficient_scope and runs nothing", async () => {
    const { ctx, rows } = context([READ_SCOPE]);
    const res = await run(defineTool({ ...flagTool, handler: () => { throw new Error("must not run"); } }), ctx);
    expect(res.isError).toBe(true);
    expect(res.content).toEqual([{ type: "text", text: expect.stringMatching(/^insufficient_scope: flag_test needs the "email:write" scope/) }]);
    expect(rows).toEqual([]);
  });

  test("a failure is filed with its first line; the mail layer's InputError becomes a ToolInputError", async () => {
    const { ctx, rows } = context();
    const failing = defineTool({ ...flagTool, handler: async () => { throw new InputError("uids", "must be current\nmore"); } });
    await expect(run(failing, ctx)).rejects.toBeInstanceOf(ToolInputError);
    expect(rows).toEqual([{ tool: "flag_test", outcome: "error", details: { folder: "INBOX", uids: [4, 5], error: "uids: must be current" } }]);
  });

  test("a mapping that throws is logged; the answer stands and a row is still filed", async () => {
    const { ctx, rows, log } = context();
    const broken = defineTool({ ...flagTool, activity: { ...flagTool.activity, fromResult: () => { throw new Error("mapping bug"); } } });
    const res = await run(broken, ctx);
    expect(res.structuredContent).toEqual({ flagged: 2 });
    expect(rows).toEqual([{ tool: "flag_test", outcome: "ok", details: {} }]);
    expect(log.lines.join("\n")).toContain("mapping bug");
  });
});
