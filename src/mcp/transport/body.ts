// Reading a /mcp POST body ourselves, so the 32 MB limit (docs/design.md §7) holds even for chunked
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

/** The body did not arrive whole within its deadline (a client sending slowly or not at all). */
export class BodyTimeout extends Error {
  constructor(readonly ms: number) {
    super(`the request body did not arrive within ${Math.round(ms / 1000)} s`);
    this.name = "BodyTimeout";
  }
}

/**
 * The body as text, or null once it passes `limit` bytes (chunked uploads included). Throws
 * BodyTimeout when it has not arrived whole within `deadlineMs`: the idle timeout alone would let a
 * client that sends one byte every few seconds hold the request open for as long as it likes.
 */
export async function readLimited(request: Request, limit: number, deadlineMs = Infinity): Promise<string | null> {
  if (!request.body) return "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    if (Number.isFinite(deadlineMs)) timer = setTimeout(() => reject(new BodyTimeout(deadlineMs)), deadlineMs);
  });
  try {
    return await Promise.race([readBody(request, request.body, limit), expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function readBody(request: Request, body: ReadableStream<Uint8Array>, limit: number): Promise<string | null> {
  // A declared length is exact (Bun answers 400 to a request that also sends Transfer-Encoding), so
  // such a body is read in one go (~0.03 ms less per /mcp request); chunked ones are counted below.
  const declared = request.headers.get("content-length");
  if (declared !== null) return Number(declared) <= limit ? request.text() : null;
  const reader = body.getReader();
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

/**
 * An MCP message nests a few levels (params.arguments.attachments[0].filename is 5). Much deeper
 * ones made the SDK's recursive schema checks overflow the stack, and its answer carried
 * "RangeError: Maximum call stack size exceeded." to the client.
 */
export const MAX_JSON_DEPTH = 64;

/** Walked with an explicit stack: the check must not recurse either. */
function nestsDeeper(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

/** An initialize request, alone or in a batch (the transport rejects a batch with more). */
export function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

const OPENED = new TextEncoder().encode(": stream open\n\n");
const nothing = () => {};
type Reader = ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>>;
type ReadResult = Awaited<ReturnType<Reader["read"]>>;

/**
 * Bun sends a streamed response's headers only with its first chunk, and the SDK writes nothing
 * on the standalone GET stream until an event or its 15 s keep-alive: clients would wait that
 * long for the 200. An SSE comment first makes the headers go out at once. `onEnd` runs once when
 * the stream is over (ended, failed or cancelled by the client), or at once for any other answer.
 */
export function primeSse(response: Response, onEnd: () => void = nothing): Response {
  if (!isSse(response)) {
    onEnd();
    return response;
  }
  const body = streamOn(response.body!.getReader(), once(onEnd), OPENED);
  return new Response(body, { status: response.status, headers: response.headers });
}

const isSse = (r: Response) => !!r.body && !!r.headers.get("content-type")?.includes("text/event-stream");

function once(fn: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    fn();
  };
}

/**
 * A POST's SSE answer, sent whole when it is complete. The SDK returns its stream before the tool
 * has run, so Bun would write part of the headers at once and the rest with the event: two writes,
 * two wake-ups of the client, ~0.05 ms per call. Waiting for the first event (as enableJsonResponse
 * would, without its leak) lets a finished answer go out in one write. A stream still open after
 * its first event (progress, a request to the client, a keep-alive) streams on as before.
 * `onEnd` runs once, when the answer is complete.
 */
export async function sendWhole(response: Response, onEnd: () => void = nothing): Promise<Response> {
  const end = once(onEnd);
  if (!isSse(response)) {
    end();
    return response;
  }
  const init = { status: response.status, headers: response.headers };
  const reader: Reader = response.body!.getReader();
  let first: ReadResult;
  try {
    first = await reader.read();
  } catch (err) {
    end();
    throw err;
  }
  if (first.done) {
    end();
    return new Response(null, init);
  }
  const next = reader.read();
  // The SDK closes the stream right after the answer, so this read has already settled: the race
  // picks it over the plain value, which only wins when the stream is still open.
  const settled = await Promise.race([next, undefined]);
  if (settled?.done) {
    end();
    return new Response(first.value, init);
  }
  return new Response(streamOn(reader, end, first.value, next), init);
}

/** The reader's chunks after `head`, calling `end` when the stream ends, fails or is cancelled. */
function streamOn(
  reader: Reader, end: () => void, head: Uint8Array,
  next: Promise<ReadResult> | null = null,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(head),
    async pull(c) {
      try {
        const r = await (next ?? reader.read());
        next = null;
        if (!r.done) return c.enqueue(r.value);
        end();
        c.close();
      } catch (err) {
        end();
        c.error(err);
      }
    },
    cancel: (reason) => {
      end();
      return reader.cancel(reason);
    },
  });
}
