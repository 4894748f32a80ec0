// The OAuth POST bodies (/oauth/connect, /oauth/token, /oauth/revoke) are read with a byte limit,
// chunked uploads included (docs/design.md §7: form bodies ≤ 64 KB), and a deadline; Elysia's own parser
// would read any size for any time. Used as those routes' `parse` option.
import { BodyTimeout, readLimited } from "./reader.ts";
import { AppError } from "../plugins/errors.ts";
import { NO_STORE } from "../responses.ts";

const MAX_FORM_BYTES = 64 * 1024;
const TOO_LARGE = new AppError(413, "invalid_request", "the request body is larger than 64 KB", { ...NO_STORE });

/** Form fields; a repeated name becomes an array, which the string schemas then refuse (RFC 6749 §3.1). */
function formFields(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  return out;
}

/** RFC 9110 §15.5.9: 408, closing the connection (the rest of the body may still be on its way). */
const tooSlow = (err: BodyTimeout) =>
  new AppError(408, "invalid_request", err.message, { ...NO_STORE, connection: "close" });

/** The routes' parser; a throw here reaches errors.ts as a PARSE error whose cause is the AppError. */
export function limitedBody(deadlineMs: number) {
  return async ({ request }: { request: Request }): Promise<unknown> => {
    const type = mediaType(request);
    if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) throw TOO_LARGE;
    if (type !== "application/x-www-form-urlencoded" && type !== "application/json") return ""; // the route refuses it
    let text: string | null;
    try {
      text = await readLimited(request, MAX_FORM_BYTES, deadlineMs);
    } catch (err) {
      throw err instanceof BodyTimeout ? tooSlow(err) : err;
    }
    if (text === null) throw TOO_LARGE;
    return type === "application/json" ? JSON.parse(text) : formFields(text);
  };
}

export function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}
