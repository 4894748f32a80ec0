// Reading a request body ourselves, with a byte limit that holds for chunked uploads too and a
// deadline for the whole body: Elysia's own parser would read any size for any time. Used for the
// OAuth form bodies (./form.ts) and /mcp (./mcp.ts).
import { readCapped } from "../../capped-read.ts";

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
  // A declared length is exact (Bun answers 400 to a request that also sends Transfer-Encoding), so
  // such a body is checked against the limit before it is read, and read in one go (~0.03 ms less
  // per /mcp request); without touching `request.body`, which builds a stream object (~1% of a /mcp
  // request's CPU). Chunked bodies are counted as they come (readBody).
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return null;
  if (declared === null && !request.body) return "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    if (Number.isFinite(deadlineMs)) timer = setTimeout(() => reject(new BodyTimeout(deadlineMs)), deadlineMs);
  });
  try {
    return await Promise.race([declared !== null ? request.text() : readBody(request.body!, limit), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** A body without a declared length (chunked): counted as it comes, given up past `limit`. */
async function readBody(body: ReadableStream<Uint8Array>, limit: number): Promise<string | null> {
  return (await readCapped(body, limit))?.toString("utf8") ?? null;
}
