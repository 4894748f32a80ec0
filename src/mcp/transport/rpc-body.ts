// /mcp bodies as MCP sees them: errors in the JSON-RPC shape MCP clients expect, the nesting bound,
// and how a finished SSE answer is sent (the HTTP reading with its limit and deadline is
// src/http/body/mcp.ts; initialize detection, which needs the SDK, is ./initialize.ts). Nothing here
// loads the MCP SDK: the /mcp route uses this file, and an idle server holds no SDK
// (docs/performance.md "Idle memory").

/** A JSON-RPC error response with an HTTP status (the shape the SDK's transport uses too). */
export function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * An MCP message nests a few levels (params.arguments.attachments[0].filename is 5). Much deeper
 * ones made the SDK's recursive schema checks overflow the stack, and its answer carried
 * "RangeError: Maximum call stack size exceeded." to the client.
 */
export const MAX_JSON_DEPTH = 64;

/** Walked with an explicit stack: the check must not recurse either. */
export function nestsDeeper(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
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
 * would, without its leak) lets a finished answer go out in one write, and an answer that is one
 * message goes out as that message, `application/json` (see asJson). A stream still open after its
 * first event (progress, a request to the client, a keep-alive) streams on as before.
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
    return asJson(first.value, init) ?? new Response(first.value, init);
  }
  return new Response(streamOn(reader, end, first.value, next), init);
}

/** How the SDK writes an event without an id (no event store here): `event: message`, then its data line. */
const MESSAGE_EVENT = new TextEncoder().encode("event: message\ndata: ");
const LF = 0x0a;

/**
 * A finished answer that is exactly one message event, as the JSON-RPC message it carries; null for
 * anything else (an id line, a comment, two events), which stays SSE. MCP's Streamable HTTP transport
 * lets the server answer a request with either `text/event-stream` or `application/json`, and every
 * client must take both; parsing an event stream cost the official client ~60–90 µs of CPU a call
 * more than a JSON body, and the server ~30–50 µs (docs/decisions.md "Response mode"). Checked on
 * the bytes and sent as a view of them: an answer of megabytes (an attachment) is not copied.
 */
function asJson(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit & { headers: Headers }): Response | null {
  const n = bytes.length;
  if (n < MESSAGE_EVENT.length + 2 || bytes[n - 1] !== LF || bytes[n - 2] !== LF) return null;
  for (let i = 0; i < MESSAGE_EVENT.length; i++) if (bytes[i] !== MESSAGE_EVENT[i]) return null;
  const data = bytes.subarray(MESSAGE_EVENT.length, n - 2);
  // JSON.stringify writes no raw line feed, and UTF-8 has no 0x0a inside a character: one data line.
  if (data.includes(LF)) return null;
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  return new Response(data, { status: init.status, headers });
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
