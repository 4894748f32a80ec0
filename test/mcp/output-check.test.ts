// Which tools' results the SDK checks against their outputSchema (src/mcp/output-check.ts): skipped
// for the results our normalizers build field by field, kept for every other tool.
import { describe, expect, test } from "bun:test";
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { OUTPUT_BUILT_BY_US, skipOutputCheckOfOwnResults } from "../../src/mcp/output-check.ts";
import { toolSchema } from "../../src/mcp/tool-schema.ts";
import { TOOLS } from "../../src/mcp/tools/index.ts";

type Validate = (tool: unknown, result: unknown, name: string) => Promise<void>;

function checker(): Validate {
  const server = new McpServer({ name: "t", version: "0" });
  skipOutputCheckOfOwnResults(server);
  return (server as unknown as { validateToolOutput: Validate }).validateToolOutput.bind(server);
}

describe("output check", () => {
  const tool = { outputSchema: toolSchema({ n: z.number() }) };
  const wrong = { content: [], structuredContent: { n: "not a number" } };

  test("skipped for the results our normalizers build", async () => {
    for (const name of OUTPUT_BUILT_BY_US) expect(await checker()(tool, wrong, name)).toBeUndefined();
  });

  test("kept for the others: a result that breaks the schema is refused", async () => {
    for (const name of ["list_mailboxes", "get_attachment", "move_email", "a_tool_added_later"]) {
      await expect(checker()(tool, wrong, name)).rejects.toThrow(/Output validation error/);
    }
  });

  test("only tools that exist are listed, and only reading ones", () => {
    for (const name of OUTPUT_BUILT_BY_US) expect(TOOLS.find((t) => t.name === name)?.kind).toBe("read");
  });
});
