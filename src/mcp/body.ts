// Reading a /mcp POST body ourselves, so the 32 MB limit (DESIGN §7) holds even for chunked
// uploads, and answering errors in the JSON-RPC shape MCP clients expect.
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

export const MCP_BODY_LIMIT = 32 * 1024 * 1024;

/** A JSON-RPC error response with an HTTP status (the shape the SDK's transport uses too). */
export function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** The body as text, or null once it passes `limit` bytes (chunked uploads included). */
export async function readLimited(request: Request, limit: number): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The parsed JSON body, or the error Response to send (413 too large, 400 not JSON). */
export async function readJsonBody(request: Request, limit = MCP_BODY_LIMIT): Promise<{ body: unknown } | { error: Response }> {
  const tooLarge = () => rpcError(413, -32000, `Payload Too Large: the request body must not exceed ${limit} bytes`);
  if (Number(request.headers.get("content-length") ?? 0) > limit) return { error: tooLarge() };
  const text = await readLimited(request, limit);
  if (text === null) return { error: tooLarge() };
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { error: rpcError(400, -32700, "Parse error: the body is not valid JSON") };
  }
}

/** An initialize request, alone or in a batch (the transport rejects a batch with more). */
export function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

const OPENED = new TextEncoder().encode(": stream open\n\n");

/**
 * Bun sends a streamed response's headers only with its first chunk, and the SDK writes nothing
 * on the standalone GET stream until an event or its 15 s keep-alive: clients would wait that
 * long for the 200. An SSE comment first makes the headers go out at once.
 */
export function primeSse(response: Response): Response {
  if (!response.body || !response.headers.get("content-type")?.includes("text/event-stream")) return response;
  const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ start: (c) => c.enqueue(OPENED) }));
  return new Response(body, { status: response.status, headers: response.headers });
}
