// A 2026-07-28 tools/call is served by an McpServer built for that request with the one tool its
// Mcp-Name header names (src/mcp/server.ts createMcpServer's onlyTool); any other request, or a
// name that is none of ours, gets every tool.
import { describe, expect, test } from "bun:test";
import { createMcpServer } from "../../src/mcp/server.ts";
import { buildSending } from "../../src/mcp/confirm/tool-sending.ts";
import { TOOLS } from "../../src/mcp/tools/index.ts";
import { testDeps } from "../support/app.ts";

const registered = (onlyTool?: string) => {
  const d = testDeps();
  const sending = buildSending(d.store, d.config.secretKey, d.config.sendLimits, d.clock, d.runtime.mail.smtp);
  const deps = { activity: d.activity, mailboxes: d.store.mailboxes, mail: d.runtime.mail, calls: d.calls, sendBudget: d.sendBudget, sending, tools: TOOLS, log: d.log, version: "0", baseUrl: d.config.baseUrl };
  return Object.keys((createMcpServer(deps, onlyTool) as unknown as { _registeredTools: Record<string, unknown> })._registeredTools).sort();
};

describe("createMcpServer", () => {
  test("every tool by default", () => {
    expect(registered()).toEqual(TOOLS.map((t) => t.name).sort());
  });

  test("the called tool alone for a tools/call", () => {
    expect(registered("get_email")).toEqual(["get_email"]);
  });

  test("every tool for a name that is none of ours, so the SDK's own 'not found' answers it", () => {
    expect(registered("no_such_tool")).toEqual(TOOLS.map((t) => t.name).sort());
  });
});
