// Reading a /mcp POST body: the 32 MB limit (docs/design.md §7), a deadline, JSON, and the nesting
// bound, each refusal answered in the JSON-RPC shape MCP clients expect.
import { MAX_JSON_DEPTH, nestsDeeper, rpcError } from "../../mcp/transport/rpc-body.ts";
import { BodyTimeout, readLimited } from "./reader.ts";

export const MCP_BODY_LIMIT = 32 * 1024 * 1024;

/** The parsed JSON body, or the error Response to send (413 too large, 408 too slow, 400 not JSON). */
export async function readJsonBody(request: Request, limit = MCP_BODY_LIMIT, deadlineMs = Infinity): Promise<{ body: unknown } | { error: Response }> {
  const tooLarge = () => rpcError(413, -32000, `Payload Too Large: the request body must not exceed ${limit} bytes`);
  if (Number(request.headers.get("content-length") ?? 0) > limit) return { error: tooLarge() };
  let text: string | null;
  try {
    text = await readLimited(request, limit, deadlineMs);
  } catch (err) {
    if (!(err instanceof BodyTimeout)) throw err;
    // RFC 9110 §15.5.9: 408, and close the connection (the rest of the body may still come).
    return { error: rpcError(408, -32000, `Request Timeout: ${err.message}`, { connection: "close" }) };
  }
  if (text === null) return { error: tooLarge() };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { error: rpcError(400, -32700, "Parse error: the body is not valid JSON") };
  }
  if (nestsDeeper(body, MAX_JSON_DEPTH)) {
    return { error: rpcError(400, -32700, `Parse error: the JSON nests deeper than ${MAX_JSON_DEPTH} levels`) };
  }
  return { body };
}
