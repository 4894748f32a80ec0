// Tool schemas as the SDK wants them (a Standard Schema with JSON Schema, SDK v2), converted to JSON
// Schema once per process instead of once per McpServer. A 2026-07-28 request is served by an
// McpServer built for that request alone (src/mcp/transport/modern.ts), and the SDK converts a tool's zod
// schema on each new server: for tools/list, for every tools/call (the output schema, to shape the
// result) and for the Mcp-Param header check (the input schema). One conversion costs ~0.4 ms of
// CPU for a small object here, several for ours: more than the whole rest of a call.
import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { z } from "zod";

type Io = "input" | "output";

/**
 * `z.object(shape)` as a Standard Schema whose validation is zod's own (defaults, unions and the
 * messages naming the argument stay as they are) and whose JSON Schema is computed on first use
 * and then shared. The SDK only reads the JSON Schema it is given (it spreads a copy for inputs).
 */
export function toolSchema(shape: z.ZodRawShape): StandardSchemaWithJSON {
  const std = z.object(shape)["~standard"];
  const json = new Map<string, Record<string, unknown>>();
  const convert = (io: Io) => (options: { target: string }) => {
    const key = `${io}:${options.target}`;
    let out = json.get(key);
    if (!out) json.set(key, (out = std.jsonSchema[io](options as Parameters<typeof std.jsonSchema.input>[0])));
    return out;
  };
  return { "~standard": { ...std, jsonSchema: { input: convert("input"), output: convert("output") } } } as StandardSchemaWithJSON;
}
