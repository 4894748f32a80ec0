// Reading a /mcp POST body ourselves, so the 32 MB limit (DESIGN §7) holds even for chunked
// uploads, and answering errors in the JSON-RPC shape MCP clients expect.
import { isInitializeRequest } from "@modelcontextprotocol/server";

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
  // A declared length is exact (Bun answers 400 to a request that also sends Transfer-Encoding), so
  // such a body is read in one go (~0.03 ms less per /mcp request); chunked ones are counted below.
  const declared = request.headers.get("content-length");
  if (declared !== null) return Number(declared) <= limit ? request.text() : null;
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
  if (!isSse(response)) return response;
  const body = response.body!.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ start: (c) => c.enqueue(OPENED) }));
  return new Response(body, { status: response.status, headers: response.headers });
}

const isSse = (r: Response) => !!r.body && !!r.headers.get("content-type")?.includes("text/event-stream");

/**
 * A POST's SSE answer, sent whole when it is complete. The SDK returns its stream before the tool
 * has run, so Bun would write part of the headers at once and the rest with the event: two writes,
 * two wake-ups of the client, ~0.05 ms per call. Waiting for the first event (as enableJsonResponse
 * would, without its leak) lets a finished answer go out in one write. A stream still open after
 * its first event (progress, a request to the client, a keep-alive) streams on as before.
 */
export async function sendWhole(response: Response): Promise<Response> {
  if (!isSse(response)) return response;
  const init = { status: response.status, headers: response.headers };
  const reader = response.body!.getReader();
  const first = await reader.read();
  if (first.done) return new Response(null, init);
  let next: ReturnType<typeof reader.read> | null = reader.read();
  // The SDK closes the stream right after the answer, so this read has already settled: the race
  // picks it over the plain value, which only wins when the stream is still open.
  const settled = await Promise.race([next, undefined]);
  if (settled?.done) return new Response(first.value, init);
  const rest = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(first.value),
    async pull(c) {
      const r = await (next ?? reader.read());
      next = null;
      if (r.done) c.close();
      else c.enqueue(r.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(rest, init);
}
