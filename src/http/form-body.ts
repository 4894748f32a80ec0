// The OAuth POST bodies (/oauth/connect, /oauth/token, /oauth/revoke) are read with a byte limit,
// chunked uploads included (DESIGN §7: form bodies ≤ 64 KB); Elysia's own parser would read any
// size. Used as those routes' `parse` option.
import { readLimited } from "../mcp/body.ts";
import { AppError } from "./errors.ts";

const MAX_FORM_BYTES = 64 * 1024;
const TOO_LARGE = new AppError(413, "invalid_request", "the request body is larger than 64 KB", { "cache-control": "no-store" });

/** Form fields; a repeated name becomes an array, which the string schemas then refuse (RFC 6749 §3.1). */
function formFields(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  return out;
}

/** A throw here reaches errors.ts as a PARSE error whose cause is TOO_LARGE. */
export async function parseLimitedBody({ request }: { request: Request }): Promise<unknown> {
  const type = mediaType(request);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) throw TOO_LARGE;
  if (type !== "application/x-www-form-urlencoded" && type !== "application/json") return ""; // the route refuses it
  const text = await readLimited(request, MAX_FORM_BYTES);
  if (text === null) throw TOO_LARGE;
  return type === "application/json" ? JSON.parse(text) : formFields(text);
}

export function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}
